// Small Matrix Market inputs with known products, shared by the spgemm
// command-line tests.
#pragma once

namespace graphrun::test {

// A = [1 2 0; 0 0 3] (2x3), B = [4 0; 0 5; 6 7] (3x2): A*B = [4 10; 18 21],
// from IP = 2 + 2 = 4 products, all 4 entries the nnz bound allows.
inline constexpr const char* spgemm_matrix_a =
    "%%MatrixMarket matrix coordinate real general\n"
    "% a 2x3 matrix\n"
    "2 3 3\n"
    "1 1 1\n"
    "1 2 2\n"
    "2 3 3\n";
inline constexpr const char* spgemm_matrix_b =
    "%%MatrixMarket matrix coordinate real general\n"
    "3 2 4\n"
    "3 2 7\n"
    "1 1 4\n"
    "2 2 5\n"
    "3 1 6\n";

}  // namespace graphrun::test
