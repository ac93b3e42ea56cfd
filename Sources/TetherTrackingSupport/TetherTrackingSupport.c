#include "TetherTrackingSupport.h"

_Thread_local void *_Nullable tether_current_tracker = 0;
