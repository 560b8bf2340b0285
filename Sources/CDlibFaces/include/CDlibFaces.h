// A small C interface to dlib's face detection (the HOG frontal-face detector compiled into
// the library) and its 68-point landmark model (Debian's libdlib-data). Every call catches
// dlib's exceptions and reports failure in its return value; nothing throws across it.
#ifndef CDLIBFACES_H
#define CDLIBFACES_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// A face's box in pixels of the image it was found in, and the detector's confidence.
typedef struct {
  float x, y, width, height;
  float score;
} ptfaces_box;

/// The 68-point landmark model, loaded once; safe to use from several threads at once.
typedef struct ptfaces_model ptfaces_model;

/// The HOG detector; one thread at a time (make one per thread).
typedef struct ptfaces_detector ptfaces_detector;

/// Loads the landmark model at `path`; NULL on failure, with the reason in `error`.
ptfaces_model *ptfaces_model_load(const char *path, char *error, size_t error_size);
void ptfaces_model_free(ptfaces_model *model);

ptfaces_detector *ptfaces_detector_new(void);
void ptfaces_detector_free(ptfaces_detector *detector);

/// The detector's window: faces smaller than this many pixels across are not found.
int ptfaces_detector_window(void);

/// Finds faces in an 8-bit grey image; writes up to `capacity` boxes, returns how many were
/// found (it may exceed `capacity`), or -1 on failure. `threshold` adjusts the detector's
/// (0: dlib's own; negative finds more).
int ptfaces_detect(
  ptfaces_detector *detector, const uint8_t *grey, int width, int height, int stride,
  double threshold, ptfaces_box *boxes, int capacity);

/// The 68 landmarks (x, y pairs: 136 floats into `points`) of the face in `box`; 0 on
/// success, -1 on failure.
int ptfaces_landmarks(
  const ptfaces_model *model, const uint8_t *grey, int width, int height, int stride,
  ptfaces_box box, float *points);

#ifdef __cplusplus
}
#endif

#endif
