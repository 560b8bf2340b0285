// dlib behind the C interface in include/CDlibFaces.h.
#include "CDlibFaces.h"

#include <dlib/image_processing.h>
#include <dlib/image_processing/frontal_face_detector.h>

#include <cstring>
#include <exception>
#include <string>

struct ptfaces_model {
  dlib::shape_predictor predictor;
};

struct ptfaces_detector {
  dlib::frontal_face_detector detector = dlib::get_frontal_face_detector();
};

// An 8-bit grey image in the caller's memory, read in place through dlib's generic image
// interface (no copy).
namespace ptfaces {

struct grey_view {
  const uint8_t *pixels;
  long width;
  long height;
  long stride;
};

inline long num_rows(const grey_view &image) { return image.height; }
inline long num_columns(const grey_view &image) { return image.width; }
inline void *image_data(grey_view &image) { return const_cast<uint8_t *>(image.pixels); }
inline const void *image_data(const grey_view &image) { return image.pixels; }
inline long width_step(const grey_view &image) { return image.stride; }

}  // namespace ptfaces

namespace dlib {
template <> struct image_traits<ptfaces::grey_view> {
  typedef unsigned char pixel_type;
};
}  // namespace dlib

using ptfaces::grey_view;

extern "C" ptfaces_model *ptfaces_model_load(const char *path, char *error, size_t error_size) {
  try {
    auto model = new ptfaces_model();
    try {
      dlib::deserialize(path) >> model->predictor;
    } catch (...) {
      delete model;
      throw;
    }
    if (model->predictor.num_parts() != 68) {
      delete model;
      if (error_size > 0) std::snprintf(error, error_size, "%s is not a 68-point model", path);
      return nullptr;
    }
    return model;
  } catch (const std::exception &problem) {
    if (error_size > 0) std::snprintf(error, error_size, "%s", problem.what());
  } catch (...) {
    if (error_size > 0) std::snprintf(error, error_size, "unknown error");
  }
  return nullptr;
}

extern "C" void ptfaces_model_free(ptfaces_model *model) { delete model; }

extern "C" ptfaces_detector *ptfaces_detector_new(void) {
  try {
    return new ptfaces_detector();
  } catch (...) {
    return nullptr;
  }
}

extern "C" void ptfaces_detector_free(ptfaces_detector *detector) { delete detector; }

extern "C" int ptfaces_detector_window(void) { return 80; }

extern "C" int ptfaces_detect(
  ptfaces_detector *detector, const uint8_t *grey, int width, int height, int stride,
  double threshold, ptfaces_box *boxes, int capacity) {
  if (!detector || !grey || width <= 0 || height <= 0 || stride < width) return -1;
  try {
    const grey_view image{grey, width, height, stride};
    std::vector<dlib::rect_detection> found;
    detector->detector(image, found, threshold);
    const int count = static_cast<int>(found.size());
    for (int index = 0; index < count && index < capacity; index++) {
      const auto &rect = found[index].rect;
      boxes[index] = ptfaces_box{
        static_cast<float>(rect.left()), static_cast<float>(rect.top()),
        static_cast<float>(rect.width()), static_cast<float>(rect.height()),
        static_cast<float>(found[index].detection_confidence)};
    }
    return count;
  } catch (...) {
    return -1;
  }
}

extern "C" int ptfaces_landmarks(
  const ptfaces_model *model, const uint8_t *grey, int width, int height, int stride,
  ptfaces_box box, float *points) {
  if (!model || !grey || width <= 0 || height <= 0 || stride < width || !points) return -1;
  try {
    const grey_view image{grey, width, height, stride};
    const dlib::rectangle rect(
      static_cast<long>(box.x), static_cast<long>(box.y),
      static_cast<long>(box.x + box.width) - 1, static_cast<long>(box.y + box.height) - 1);
    const auto shape = model->predictor(image, rect);
    if (shape.num_parts() != 68) return -1;
    for (unsigned long part = 0; part < 68; part++) {
      points[2 * part] = static_cast<float>(shape.part(part).x());
      points[2 * part + 1] = static_cast<float>(shape.part(part).y());
    }
    return 0;
  } catch (...) {
    return -1;
  }
}
