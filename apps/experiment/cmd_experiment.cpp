// graphrun experiment: the reproductions of experiment.hpp, one subcommand each.
#include "cli/delegated.hpp"
#include "experiment.hpp"

namespace graphrun::cli {

Command add_experiment(CLI::App& root) {
  CLI::App* sub = root.add_subcommand(
      "experiment",
      std::string(experiment_summary) +
          "\n"
          "contraction: S*A*S^T with graphrun's SpGEMM and with cuSPARSE's, for labels grouping\n"
          "  16 consecutive ids and for random labels into n/16 groups (--device cuda).\n"
          "mcl: Markov clustering with expansion by graphrun's SpGEMM and by cuSPARSE's, the\n"
          "  rest of the loop shared (--device cuda); on the CPU, graphrun's MCL against the\n"
          "  mcl program (mcl -te 2), with the adjusted Rand index of the two clusterings.\n"
          "Without inputs: every graph of ../shared/datasets (else datasets/) and, on the GPU,\n"
          "generated stand-ins for the published inputs (a 1183x1183 grid for roadNet-TX,\n"
          "R-MAT scale 20, edge factor 5 for web-Google in contraction, beside R-MAT 18-22 with\n"
          "edge factors 5 and 16, a 2000x2000 grid and a uniform random graph; for MCL, an LFR\n"
          "graph of web-Google's 875,713 vertices with planted communities). Tables go to stdout\n"
          "(Markdown), each followed by a summary per size class against the goal; --csv and\n"
          "--png write them as CSV and as a bar chart of the speed-ups.");
  return command_group(sub, {experiment::add_contraction(*sub), experiment::add_mcl(*sub),
                             experiment::add_plot(*sub)});
}

}  // namespace graphrun::cli
