/* LD_PRELOAD shim for the fault test "the board's wall clock steps mid-flight": once the file named by
 * QUAD_WALLSTEP_FILE exists, CLOCK_REALTIME (and gettimeofday) read QUAD_WALLSTEP_S seconds later, as after a
 * `date -s` or a chrony makestep. CLOCK_MONOTONIC is untouched: every age and timeout must use it, so nothing
 * but the stamps may change. (libfaketime shifts every clock and hangs Dispatch timers; time namespaces cannot
 * shift CLOCK_REALTIME; stepping the machine's clock would disturb everything else running.) */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static long step_seconds(void) {
    const char *file = getenv("QUAD_WALLSTEP_FILE");
    const char *seconds = getenv("QUAD_WALLSTEP_S");
    if (!file || !seconds || access(file, F_OK) != 0) return 0;
    return atol(seconds);
}

int clock_gettime(clockid_t id, struct timespec *ts) {
    static int (*real)(clockid_t, struct timespec *);
    if (!real) real = (int (*)(clockid_t, struct timespec *))dlsym(RTLD_NEXT, "clock_gettime");
    int result = real(id, ts);
    if (result == 0 && (id == CLOCK_REALTIME || id == CLOCK_REALTIME_COARSE)) ts->tv_sec += step_seconds();
    return result;
}

int gettimeofday(struct timeval *tv, void *tz) {
    static int (*real)(struct timeval *, void *);
    if (!real) real = (int (*)(struct timeval *, void *))dlsym(RTLD_NEXT, "gettimeofday");
    int result = real(tv, tz);
    if (result == 0 && tv) tv->tv_sec += step_seconds();
    return result;
}
