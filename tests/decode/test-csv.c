// SPDX-License-Identifier: MIT
/*
 * test-csv.c - the CSV writer (EHD_OUT_CSV).
 *
 * Events made by the producer through the interceptor, with a context
 * set here, are written as CSV and read back by the strict RFC 4180
 * parser below (CRLF line ends; a cell either plain, without a comma, a
 * quote, CR or LF, or quoted whole with its quotes doubled); every cell
 * is compared with what it must be: quoting, flattened names of struct
 * fields and array elements, empty context cells. The reference corpus
 * then goes through the reader: one row per event, each with its six
 * context cells and a name,value pair for every value the enumerator
 * finds in the event.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <cmocka.h>

#include <eventheader/eh-provider.h>
#include <ehdecode/enumerator.h>
#include <ehdecode/reader.h>
#include <ehdecode/writer.h>

#include "test-files.h"

EH_DEFINE_PROVIDER(csv_provider, "CsvTest");

/* libtraceevent leaks on formats it cannot parse (not ours). */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:libtraceevent.so\n";
}

/* ---- a strict RFC 4180 reader ---- */

#define CELLS_MAX 512

struct row {
	size_t n;
	char *cell[CELLS_MAX];
	size_t len[CELLS_MAX];
};

/*
 * One row at *@at of the @size bytes at @s (values may hold any byte,
 * NUL included); false at the end. Fails the test on bad CSV.
 */
static bool read_row(const char *s, size_t size, size_t *at, struct row *r)
{
	const char *p = s + *at, *end = s + size;

	if (p == end)
		return false;
	r->n = 0;
	for (;;) {
		char *c = malloc((size_t)(end - p) + 1), *o = c;

		assert_non_null(c);
		assert_true(r->n < CELLS_MAX);
		if (p < end && *p == '"') {
			for (p++;; p++) {
				assert_true(p < end);	/* a quote never closed */
				if (*p == '"' && (p + 1 == end || p[1] != '"'))
					break;
				if (*p == '"')
					p++;
				*o++ = *p;
			}
			p++;
		} else {
			for (; p < end && *p != ',' && *p != '\r'; p++) {
				assert_true(*p != '"' && *p != '\n');
				*o++ = *p;
			}
		}
		*o = 0;
		r->len[r->n] = (size_t)(o - c);
		r->cell[r->n++] = c;
		if (p < end && *p == ',') {
			p++;
			continue;
		}
		assert_true(end - p >= 2);
		assert_memory_equal(p, "\r\n", 2);	/* CRLF, nothing else */
		*at = (size_t)(p + 2 - s);
		return true;
	}
}

static void row_free(struct row *r)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		free(r->cell[i]);
	r->n = 0;
}

/* ---- the events ---- */

static char dat_path[64];

static int make_capture(void **state)
{
	(void)state;
	if (tf_capture(dat_path, "test-csv"))
		return -1;
	EH_REGISTER(csv_provider);
	EH_WRITE(csv_provider, "Quotes", EH_LEVEL(4),
		 EH_STRING8("plain", "abc"), EH_STRING8("comma", "a,b"),
		 EH_STRING8("quote", "say \"hi\""),
		 EH_STRING8("lines", "l1\r\nl2"), EH_STRING8("empty", ""));
	EH_WRITE(csv_provider, "Nested", EH_LEVEL(4),
		 EH_STRUCT("pt", 2), EH_INT32("x", -1),
		 EH_INT32_FIXED_ARRAY("a", ((const int32_t[]){ 7, -8 }), 2),
		 EH_UINT32("after", 5));
	EH_WRITE(csv_provider, "Bare", EH_LEVEL(4));
	EH_UNREGISTER(csv_provider);
	return 0;
}

static int remove_capture(void **state)
{
	(void)state;
	unlink(dat_path);
	return 0;
}

/* Every event of @path as CSV (*@size bytes); its events in *@n. */
static char *write_csv(const char *path, bool context, size_t *n,
		       size_t *size)
{
	struct ehd_reader *r = ehd_reader_new(0);
	int out = memfd_create("csv", 0);
	struct ehd_writer *w = ehd_writer_new(EHD_OUT_CSV, out, 0,
					      EHD_META_DEFAULT);
	const struct ehd_event *ev;
	char *s;

	assert_non_null(r);
	assert_non_null(w);
	assert_int_equal(ehd_reader_open(r, path), 0);
	assert_int_equal(ehd_writer_begin(w, path), 0);
	*n = 0;
	while (ehd_reader_next(r, &ev) > 0) {
		struct ehd_event e = *ev;

		if (context && !*n) {
			/* 2023-11-14T22:13:20.123456789Z on cpu 3, 10/11 */
			e.context = EHD_CTX_TIME | EHD_CTX_TIME_UTC |
				    EHD_CTX_CPU | EHD_CTX_PID;
			e.time = UINT64_C(1700000000123456789);
			e.cpu = 3;
			e.pid = 10;
			e.tid = 11;
		}
		ehd_writer_event(w, &e);
		++*n;
	}
	assert_int_equal(ehd_writer_close(w), 0);
	s = tf_slurp_fd(out, size);
	assert_non_null(s);
	ehd_writer_free(w);
	ehd_reader_free(r);
	close(out);
	return s;
}

static void expect_row(const struct row *r, const char *const *want)
{
	size_t i;

	for (i = 0; want[i]; i++) {
		assert_true(i < r->n);
		assert_int_equal(r->len[i], strlen(want[i]));
		assert_string_equal(r->cell[i], want[i]);
	}
	assert_int_equal(r->n, i);
}

static void test_rows(void **state)
{
	static const char *const header[] = {
		"time", "cpu", "pid", "tid", "provider", "event", NULL
	};
	static const char *const quotes[] = {
		"2023-11-14T22:13:20.123456789Z", "3", "10", "11", "CsvTest",
		"Quotes", "plain", "abc", "comma", "a,b", "quote", "say \"hi\"",
		"lines", "l1\r\nl2", "empty", "", NULL
	};
	static const char *const nested[] = {
		"", "", "", "", "CsvTest", "Nested", "pt.x", "-1", "pt.a.0",
		"7", "pt.a.1", "-8", "after", "5", NULL
	};
	static const char *const bare[] = {
		"", "", "", "", "CsvTest", "Bare", NULL
	};
	struct row r = { 0 };
	size_t at = 0, n, size;
	char *s = write_csv(dat_path, true, &n, &size);

	(void)state;
	assert_int_equal(n, 3);
	/* The quoting itself, byte for byte. */
	assert_non_null(strstr(s, ",comma,\"a,b\",quote,\"say \"\"hi\"\"\","
				  "lines,\"l1\r\nl2\",empty,\r\n"));
	assert_true(read_row(s, size, &at, &r));
	expect_row(&r, header);
	row_free(&r);
	assert_true(read_row(s, size, &at, &r));
	expect_row(&r, quotes);
	row_free(&r);
	assert_true(read_row(s, size, &at, &r));
	expect_row(&r, nested);
	row_free(&r);
	assert_true(read_row(s, size, &at, &r));
	expect_row(&r, bare);
	row_free(&r);
	assert_false(read_row(s, size, &at, &r));
	free(s);
}

/* The values the enumerator finds in each event of @path, in order. */
static size_t *values_of(const char *path, size_t *count)
{
	struct ehd_reader *r = ehd_reader_new(0);
	struct ehd_enum *en = ehd_enum_new();
	const struct ehd_event *ev;
	size_t *v = NULL, n = 0;

	assert_non_null(r);
	assert_non_null(en);
	assert_int_equal(ehd_reader_open(r, path), 0);
	while (ehd_reader_next(r, &ev) > 0) {
		int st;

		v = realloc(v, (n + 1) * sizeof(*v));
		assert_non_null(v);
		v[n] = 0;
		if (!ehd_event_fields(ev, en, 0))
			while ((st = ehd_enum_next(en)) > EHD_STATE_BEFORE_FIRST)
				v[n] += st == EHD_STATE_VALUE;
		n++;
	}
	*count = n;
	ehd_enum_free(en);
	ehd_reader_free(r);
	return v;
}

static void test_corpus(void **state)
{
	static const char *const files[] = {
		"perf.data", "pipe.data", "EventHeaderInterceptorLE64.dat",
	};
	char path[512];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		struct row r = { 0 };
		size_t at = 0, n, nv, k, size;
		size_t *values;
		char *s;

		if (tf_corpus(path, sizeof(path), files[i])) {
			print_message("SKIP: reference corpus not found: %s\n",
				      path);
			skip();
		}
		s = write_csv(path, false, &n, &size);
		values = values_of(path, &nv);
		assert_int_equal(n, nv);
		assert_true(n > 100);
		assert_true(read_row(s, size, &at, &r));	/* the header */
		row_free(&r);
		for (k = 0; k < n; k++) {
			assert_true(read_row(s, size, &at, &r));
			assert_int_equal(r.n, 6 + 2 * values[k]);
			assert_true(r.len[5] > 0);	/* every event is named */
			row_free(&r);
		}
		assert_false(read_row(s, size, &at, &r));
		free(values);
		free(s);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows),
		cmocka_unit_test(test_corpus),
	};

	return cmocka_run_group_tests(tests, make_capture, remove_capture) != 0;
}
