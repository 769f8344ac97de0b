/* SPDX-License-Identifier: MIT */
/*
 * test-faults.h - the page faults a test's thread has taken (tests only;
 * include after cmocka.h)
 */
#ifndef TEST_FAULTS_H
#define TEST_FAULTS_H

#include <sys/resource.h>

/* Page faults, minor and major, this thread has taken so far. */
static inline long tf_faults(void)
{
	struct rusage ru;

	assert_int_equal(getrusage(RUSAGE_THREAD, &ru), 0);
	return ru.ru_minflt + ru.ru_majflt;
}

#endif /* TEST_FAULTS_H */
