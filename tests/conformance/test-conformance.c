// SPDX-License-Identifier: MIT
/*
 * test-conformance.c - regenerate the reference implementation's
 * interceptor corpus and require every record to be byte-identical.
 *
 * The corpus (shared/conformance/eventheader/EventHeaderInterceptorLE64.dat)
 * holds 374 records {u32 LE size, tracepoint name, event bytes} written by
 * LinuxTracepoints' own tests. The records of the long-name provider,
 * TestProviderC and TestProviderDyn (231) must all be reproduced, and so
 * must the 143 of TestProviderCpp (the header compiled as C++, including
 * the type-deduced TraceLoggingValue fields).
 * Records are compared per provider, in order.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "gen.h"
#include "test-files.h"
#include "gen-dyn.h"

struct record {
	char provider[256];
	const char *name;
	const unsigned char *data;
	size_t size;
};

struct corpus {
	unsigned char *buf;
	size_t size;
	struct record *recs;
	size_t count;
};

static struct corpus expected, actual;
static char actual_path[] = "/tmp/eh-conformance-XXXXXX";

static int read_file(const char *path, struct corpus *c)
{
	c->buf = tf_slurp(path, &c->size);
	return c->buf ? 0 : -EIO;
}

/* Split a file of interceptor records; -EBADMSG if the framing is bad. */
static int split(struct corpus *c)
{
	struct tf_record rec;
	size_t off = 0;
	int r;

	while ((r = tf_dat_next(c->buf, c->size, &off, &rec)) > 0) {
		struct record *e;
		char *us;

		if (rec.name_len >= sizeof(e->provider))
			return -EBADMSG;
		c->recs = realloc(c->recs, (c->count + 1) * sizeof(*c->recs));
		if (!c->recs)
			return -ENOMEM;
		e = &c->recs[c->count++];
		e->name = rec.name;
		e->data = rec.event;
		e->size = rec.event_size;
		memcpy(e->provider, rec.name, rec.name_len + 1);
		us = strrchr(e->provider, '_');
		if (us)
			*us = 0;
	}
	return r < 0 ? -EBADMSG : 0;
}

/*
 * Compare the records of providers starting with @prefix (exactly @prefix
 * when @exact) in both files. Returns the number of identical records and
 * stores the numbers of expected and generated ones.
 */
static size_t compare(const char *prefix, int exact, size_t *n_expected,
		      size_t *n_actual)
{
	size_t i, j = 0, k = 0, same = 0;

	*n_expected = *n_actual = 0;
	for (i = 0; i < expected.count || j < actual.count;) {
		const struct record *e = NULL, *a = NULL;

		while (i < expected.count) {
			const char *p = expected.recs[i].provider;

			if (exact ? !strcmp(p, prefix) :
				    !strncmp(p, prefix, strlen(prefix)))
				break;
			i++;
		}
		while (j < actual.count) {
			const char *p = actual.recs[j].provider;

			if (exact ? !strcmp(p, prefix) :
				    !strncmp(p, prefix, strlen(prefix)))
				break;
			j++;
		}
		if (i < expected.count) {
			e = &expected.recs[i++];
			(*n_expected)++;
		}
		if (j < actual.count) {
			a = &actual.recs[j++];
			(*n_actual)++;
		}
		k++;
		if (e && a && !strcmp(e->name, a->name) && e->size == a->size &&
		    !memcmp(e->data, a->data, e->size)) {
			same++;
		} else if (e && a) {
			fprintf(stderr, "%s record %zu differs: expected %s (%zu bytes), got %s (%zu bytes)\n",
				prefix, k, e->name, e->size, a->name, a->size);
		}
	}
	return same;
}

static void check(const char *label, const char *prefix, int exact,
		  size_t want)
{
	size_t n_e, n_a, same = compare(prefix, exact, &n_e, &n_a);

	printf("conformance: %s: %zu of %zu records byte-identical (%zu generated)\n",
	       label, same, n_e, n_a);
	assert_int_equal(n_e, want);
	assert_int_equal(n_a, want);
	assert_int_equal(same, want);
}

static void test_long_name(void **state)
{
	(void)state;
	check("long-name provider", "Long_Provider_Name_", 0, 1);
}

static void test_provider_c(void **state)
{
	(void)state;
	check("TestProviderC", "TestProviderC", 1, 116);
}

static void test_provider_cpp(void **state)
{
	(void)state;
	check("TestProviderCpp (header as C++)", "TestProviderCpp", 1, 143);
}

static void test_provider_dyn(void **state)
{
	(void)state;
	check("TestProviderDyn (dynamic API)", "TestProviderDyn", 1, 114);
}

static void test_total(void **state)
{
	size_t n_e, n_a, total = 0;

	(void)state;
	total += compare("Long_Provider_Name_", 0, &n_e, &n_a);
	total += compare("TestProviderC", 1, &n_e, &n_a);
	total += compare("TestProviderDyn", 1, &n_e, &n_a);
	printf("conformance: %zu of 231 records (long name, TestProviderC, TestProviderDyn) byte-identical\n",
	       total);
	assert_int_equal(total, 231);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_long_name),
		cmocka_unit_test(test_provider_c),
		cmocka_unit_test(test_provider_cpp),
		cmocka_unit_test(test_provider_dyn),
		cmocka_unit_test(test_total),
	};
	const char *shared = getenv("EH_SHARED_DIR");
	char path[4096];
	int fd, err, failed;

	snprintf(path, sizeof(path),
		 "%s/conformance/eventheader/EventHeaderInterceptorLE64.dat",
		 shared ? shared : "../shared");
	if (access(path, R_OK) != 0) {
		printf("SKIP: reference corpus %s not found\n", path);
		return 77;
	}
	err = read_file(path, &expected);
	if (!err)
		err = split(&expected);
	if (err) {
		fprintf(stderr, "%s: %s\n", path, strerror(-err));
		return 1;
	}

	fd = mkstemp(actual_path);
	if (fd < 0) {
		perror("mkstemp");
		return 1;
	}
	close(fd);
	setenv("EH_INTERCEPTOR_FILE", actual_path, 1);
	gen_c();
	gen_cpp();
	gen_dyn();
	err = read_file(actual_path, &actual);
	if (!err)
		err = split(&actual);
	if (err) {
		fprintf(stderr, "%s: %s\n", actual_path, strerror(-err));
		return 1;
	}

	failed = cmocka_run_group_tests(tests, NULL, NULL);
	if (failed)
		fprintf(stderr, "generated records kept in %s\n", actual_path);
	else
		unlink(actual_path);
	return failed != 0;
}
