#include "CV4L2.h"

#include <sys/ioctl.h>

const unsigned long phototimer_vidioc_querycap = VIDIOC_QUERYCAP;
const unsigned long phototimer_vidioc_enum_fmt = VIDIOC_ENUM_FMT;
const unsigned long phototimer_vidioc_enum_framesizes = VIDIOC_ENUM_FRAMESIZES;
const unsigned long phototimer_vidioc_enum_frameintervals = VIDIOC_ENUM_FRAMEINTERVALS;
const unsigned long phototimer_vidioc_queryctrl = VIDIOC_QUERYCTRL;
const unsigned long phototimer_vidioc_g_ctrl = VIDIOC_G_CTRL;
const unsigned long phototimer_vidioc_s_ctrl = VIDIOC_S_CTRL;
const unsigned int phototimer_cid_exposure_auto = V4L2_CID_EXPOSURE_AUTO;
const unsigned int phototimer_cid_exposure_absolute = V4L2_CID_EXPOSURE_ABSOLUTE;
const unsigned int phototimer_cid_gain = V4L2_CID_GAIN;
const unsigned int phototimer_cid_autogain = V4L2_CID_AUTOGAIN;
const unsigned int phototimer_cid_auto_white_balance = V4L2_CID_AUTO_WHITE_BALANCE;
const unsigned int phototimer_cid_white_balance_temperature = V4L2_CID_WHITE_BALANCE_TEMPERATURE;
const unsigned int phototimer_cid_focus_auto = V4L2_CID_FOCUS_AUTO;
const unsigned int phototimer_cid_focus_absolute = V4L2_CID_FOCUS_ABSOLUTE;
