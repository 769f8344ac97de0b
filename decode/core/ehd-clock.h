/* SPDX-License-Identifier: MIT */
/*
 * ehd-clock.h - the time now on a clock, in ns (libehdecode, private)
 */
#ifndef EHD_CLOCK_H
#define EHD_CLOCK_H

#include <stdint.h>
#include <time.h>

/* Now on @clockid (CLOCK_MONOTONIC, ...), in ns. */
static inline uint64_t ehd__now_ns(clockid_t clockid)
{
	struct timespec ts;

	clock_gettime(clockid, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

#endif /* EHD_CLOCK_H */
