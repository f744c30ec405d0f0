# Fetches and verifies the pinned LoadGen release: the one place that does.
# CMakeLists.txt includes this file at configure time, so
# `cmake -S . -B DIR` on a fresh clone (and `make`, which runs it) gets
# the sources the same way.
#
# mlpg_fetch_loadgen(VERSION DOWNLOAD_DIR UNPACK_DIR OUT_SRC_DIR OUT_ORIGIN)
#   VERSION       mlcommons-loadgen release, e.g. 6.0.17; it must be pinned by
#                 third_party/mlcommons_loadgen-VERSION.tar.gz.sha256
#   DOWNLOAD_DIR  where the sdist is kept (third_party/: shared by every build
#                 directory and kept by `make clean`, so nothing downloads twice)
#   UNPACK_DIR    where the verified sdist is unpacked (inside the build dir)
#   OUT_SRC_DIR   set to the unpacked LoadGen source directory
#   OUT_ORIGIN    set to "pip sdist mlcommons-loadgen==VERSION sha256:<hex>",
#                 which the binary records (buildinfo.LoadGenSource)
#
# The sdist comes from `pip download` (pip's index and certificates, as
# configured on the machine), is checked against the pinned SHA-256 before
# anything reads it, and a verified unpack is stamped with that SHA-256 so a
# later configure neither downloads nor unpacks again.
function(mlpg_fetch_loadgen version download_dir unpack_dir out_src_dir out_origin)
  set(sdist "mlcommons_loadgen-${version}")
  set(pin "${PROJECT_SOURCE_DIR}/third_party/${sdist}.tar.gz.sha256")
  if(NOT EXISTS "${pin}")
    file(GLOB pins RELATIVE "${PROJECT_SOURCE_DIR}/third_party" "${PROJECT_SOURCE_DIR}/third_party/*.tar.gz.sha256")
    list(TRANSFORM pins REPLACE "^mlcommons_loadgen-(.*)\\.tar\\.gz\\.sha256$" "\\1")
    list(JOIN pins ", " pins)
    message(FATAL_ERROR
      "LoadGen ${version} is not pinned: third_party/${sdist}.tar.gz.sha256 does not exist.\n"
      "Pinned releases: ${pins} (pick one with -DLOADGEN_VERSION=..., or make LOADGEN_VERSION=...).\n"
      "To pin a new release, download its sdist, verify it, and commit its sha256 as that file.")
  endif()
  # The pin is a sha256sum line: "<64 hex>  <file name>".
  file(READ "${pin}" pin_text)
  if(NOT pin_text MATCHES "^([0-9a-f]+)[ \t\n]")
    message(FATAL_ERROR "${pin}: expected a sha256sum line '<64 hex digits>  ${sdist}.tar.gz'")
  endif()
  set(want "${CMAKE_MATCH_1}")
  string(LENGTH "${want}" want_len)
  if(NOT want_len EQUAL 64)
    message(FATAL_ERROR "${pin}: '${want}' is not a SHA-256 (64 hex digits)")
  endif()
  # A new pin must re-run this check.
  set_property(DIRECTORY "${PROJECT_SOURCE_DIR}" APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${pin}")

  set(archive "${download_dir}/${sdist}.tar.gz")
  set(src "${unpack_dir}/${sdist}")
  set(stamp "${src}/.mlperf-go-verified")
  set(${out_src_dir} "${src}" PARENT_SCOPE)
  set(${out_origin} "pip sdist mlcommons-loadgen==${version} sha256:${want}" PARENT_SCOPE)

  if(EXISTS "${stamp}")
    file(READ "${stamp}" done)
    string(STRIP "${done}" done)
    if(done STREQUAL want)
      return()
    endif()
  endif()

  if(NOT EXISTS "${archive}")
    execute_process(COMMAND "${Python3_EXECUTABLE}" -m pip --version
      RESULT_VARIABLE pip_rc OUTPUT_QUIET ERROR_QUIET)
    if(NOT pip_rc EQUAL 0)
      message(FATAL_ERROR
        "'${Python3_EXECUTABLE} -m pip' does not work, and the LoadGen sdist must be downloaded with it: "
        "apt-get install python3-pip, or build from a LoadGen checkout with -DLOADGEN_SRC=<inference>/loadgen "
        "(make LOADGEN_SRC=...).")
    endif()
    message(STATUS "Downloading mlcommons-loadgen==${version} (sdist) with pip")
    set(tmp "${unpack_dir}/download-${version}")
    file(REMOVE_RECURSE "${tmp}")
    file(MAKE_DIRECTORY "${tmp}" "${download_dir}")
    execute_process(
      COMMAND "${Python3_EXECUTABLE}" -m pip download --no-deps --no-binary=:all:
              --disable-pip-version-check -q -d "${tmp}" "mlcommons-loadgen==${version}"
      RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0 OR NOT EXISTS "${tmp}/${sdist}.tar.gz")
      file(GLOB got "${tmp}/*")
      file(REMOVE_RECURSE "${tmp}")
      message(FATAL_ERROR
        "pip download of mlcommons-loadgen==${version} failed (exit ${rc}; got: ${got}). "
        "Check that PyPI is reachable (pip config), or use -DLOADGEN_SRC=<inference>/loadgen.")
    endif()
    file(RENAME "${tmp}/${sdist}.tar.gz" "${archive}")
    file(REMOVE_RECURSE "${tmp}")
  endif()

  file(SHA256 "${archive}" got)
  if(NOT got STREQUAL want)
    file(REMOVE "${archive}")
    message(FATAL_ERROR
      "checksum mismatch for ${archive}:\n"
      "  pinned   ${want} (${pin})\n"
      "  download ${got}\n"
      "The file is not the pinned release; it has been removed. Configure again to re-download; "
      "if it still differs, do not change the pin without verifying the new archive.")
  endif()

  file(REMOVE_RECURSE "${src}")
  file(ARCHIVE_EXTRACT INPUT "${archive}" DESTINATION "${unpack_dir}")
  if(NOT EXISTS "${src}/VERSION.txt" OR NOT EXISTS "${src}/loadgen.h")
    message(FATAL_ERROR "${archive} did not unpack to ${src} with VERSION.txt and loadgen.h")
  endif()
  file(READ "${src}/VERSION.txt" unpacked)
  string(STRIP "${unpacked}" unpacked)
  if(NOT unpacked STREQUAL version)
    message(FATAL_ERROR "${archive} unpacks to VERSION.txt ${unpacked}, not ${version}")
  endif()
  file(WRITE "${stamp}" "${want}\n")
  message(STATUS "LoadGen ${version} sources verified (sha256 ${want}) and unpacked in ${src}")
endfunction()
