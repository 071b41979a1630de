# Find LIBLINEAR (Debian: liblinear-dev). Defines Liblinear::Liblinear.
find_path(LIBLINEAR_INCLUDE_DIR NAMES linear.h PATH_SUFFIXES liblinear)
find_library(LIBLINEAR_LIBRARY NAMES linear liblinear)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(Liblinear REQUIRED_VARS LIBLINEAR_LIBRARY LIBLINEAR_INCLUDE_DIR)
if(Liblinear_FOUND AND NOT TARGET Liblinear::Liblinear)
  add_library(Liblinear::Liblinear UNKNOWN IMPORTED)
  set_target_properties(Liblinear::Liblinear PROPERTIES
    IMPORTED_LOCATION "${LIBLINEAR_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${LIBLINEAR_INCLUDE_DIR}")
endif()
mark_as_advanced(LIBLINEAR_INCLUDE_DIR LIBLINEAR_LIBRARY)
