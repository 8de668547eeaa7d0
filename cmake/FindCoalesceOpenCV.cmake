# Debian's small OpenCV packages (core, imgproc, imgcodecs) ship no CMake config: find them by hand
# and wrap them in one INTERFACE target, coalesce::opencv (system includes: their headers are not
# -Wconversion clean). Without them COALESCE_WITH_OPENCV turns off.
find_package(OpenCV QUIET COMPONENTS core imgproc imgcodecs)
if(OpenCV_FOUND)
  add_library(coalesce_opencv INTERFACE)
  target_link_libraries(coalesce_opencv INTERFACE ${OpenCV_LIBS})
  target_include_directories(coalesce_opencv SYSTEM INTERFACE ${OpenCV_INCLUDE_DIRS})
else()
  find_path(COALESCE_OPENCV_INCLUDE_DIR opencv2/core.hpp PATH_SUFFIXES opencv4)
  find_library(COALESCE_OPENCV_CORE opencv_core)
  find_library(COALESCE_OPENCV_IMGPROC opencv_imgproc)
  find_library(COALESCE_OPENCV_IMGCODECS opencv_imgcodecs)
  if(COALESCE_OPENCV_INCLUDE_DIR AND COALESCE_OPENCV_CORE AND COALESCE_OPENCV_IMGPROC
     AND COALESCE_OPENCV_IMGCODECS)
    add_library(coalesce_opencv INTERFACE)
    target_include_directories(coalesce_opencv SYSTEM INTERFACE ${COALESCE_OPENCV_INCLUDE_DIR})
    target_link_libraries(coalesce_opencv INTERFACE
      ${COALESCE_OPENCV_IMGCODECS} ${COALESCE_OPENCV_IMGPROC} ${COALESCE_OPENCV_CORE})
  endif()
endif()
if(TARGET coalesce_opencv)
  add_library(coalesce::opencv ALIAS coalesce_opencv)
  message(STATUS "Coalesce: OpenCV found, image input enabled")
else()
  message(STATUS "Coalesce: OpenCV not found, image input disabled")
  set(COALESCE_WITH_OPENCV OFF)
endif()
