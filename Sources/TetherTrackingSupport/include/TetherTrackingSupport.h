#ifndef TETHER_TRACKING_SUPPORT_H
#define TETHER_TRACKING_SUPPORT_H

/// The dependency tracker of the `observe { }` run executing on this thread, or NULL.
///
/// A tracked run is synchronous, so a thread-local slot is exactly the scope of one run:
/// property reads on this thread during the run register with the tracker, and reads on any
/// other thread (or outside a run) see NULL and pay one thread-local load.
extern _Thread_local void *_Nullable tether_current_tracker;

static inline void *_Nullable tether_get_current_tracker(void) {
  return tether_current_tracker;
}

static inline void tether_set_current_tracker(void *_Nullable tracker) {
  tether_current_tracker = tracker;
}

#endif
