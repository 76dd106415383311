# Install rules and the CMake package, so analytics code can write
#   find_package(graphrun REQUIRED)
#   target_link_libraries(app PRIVATE graphrun::graphrun)
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(_targets graphrun_engine graphrun_kernels graphrun_io graphrun_algorithms graphrun_library)
install(TARGETS ${_targets} EXPORT graphrunTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS graphrun_cli graphrun_compare RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

set(_cfgdir ${CMAKE_INSTALL_LIBDIR}/cmake/graphrun)
install(EXPORT graphrunTargets NAMESPACE graphrun:: DESTINATION ${_cfgdir})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/graphrunConfig.cmake.in
  ${PROJECT_BINARY_DIR}/graphrunConfig.cmake INSTALL_DESTINATION ${_cfgdir})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/graphrunConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/graphrunConfig.cmake
  ${PROJECT_BINARY_DIR}/graphrunConfigVersion.cmake DESTINATION ${_cfgdir})
