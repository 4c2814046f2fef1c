# Debian package (CPack DEB): both binaries, the presets, the desktop entry and the icon.
#   cmake --build --preset release --target package   → build/release/gpuplan_<version>_amd64.deb
install(DIRECTORY ${PROJECT_SOURCE_DIR}/presets/ DESTINATION share/gpuplan/presets)
install(FILES ${PROJECT_SOURCE_DIR}/resources/gpuplan.desktop DESTINATION share/applications)
install(FILES ${PROJECT_SOURCE_DIR}/resources/gpuplan.svg DESTINATION share/icons/hicolor/scalable/apps)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME gpuplan)
set(CPACK_PACKAGE_VENDOR "gpuplan")
set(CPACK_PACKAGE_CONTACT "gpuplan developers <dev@gpuplan.invalid>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "What-if planner for GPU clusters")
set(CPACK_PACKAGE_DESCRIPTION
    "A deterministic simulation engine of a GPU fleet, its scheduler and workload, with a Qt
 desktop application: drag jobs onto the fleet, watch utilization, fragmentation and pending
 demand, and ask why a job is Pending (reservation, provisioning, scheduling, workload).")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)  # fills in the Qt libraries the binaries link
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
include(CPack)
