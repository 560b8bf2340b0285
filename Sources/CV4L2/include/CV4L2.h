#ifndef C_V4L2_H
#define C_V4L2_H

// The V4L2 interface for PhotoTimerGStreamer: the structures come from <linux/videodev2.h>;
// the request numbers are macros Swift cannot see, so they are exported here as constants.
#include <linux/videodev2.h>

extern const unsigned long phototimer_vidioc_querycap;
extern const unsigned long phototimer_vidioc_enum_fmt;
extern const unsigned long phototimer_vidioc_enum_framesizes;
extern const unsigned long phototimer_vidioc_enum_frameintervals;
extern const unsigned long phototimer_vidioc_queryctrl;
extern const unsigned long phototimer_vidioc_g_ctrl;
extern const unsigned long phototimer_vidioc_s_ctrl;
extern const unsigned int phototimer_cid_exposure_auto;
extern const unsigned int phototimer_cid_exposure_absolute;
extern const unsigned int phototimer_cid_gain;
extern const unsigned int phototimer_cid_autogain;
extern const unsigned int phototimer_cid_auto_white_balance;
extern const unsigned int phototimer_cid_white_balance_temperature;
extern const unsigned int phototimer_cid_focus_auto;
extern const unsigned int phototimer_cid_focus_absolute;

// The requests themselves go through PhotoTimerPOSIX's funnel (FileDescriptor.control).

#endif
