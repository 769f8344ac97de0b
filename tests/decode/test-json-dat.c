// SPDX-License-Identifier: MIT
/*
 * test-json-dat.c - every record of the reference interceptor corpus,
 * decoded to JSON with spaces and field tags, framed as the reference's
 * own test frames it, must equal EventHeaderInterceptorLE64.dat.linux.json
 * byte for byte.
 *
 * On a difference the first differing event is printed, with both texts,
 * and the whole output is kept for inspection.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ehdecode/enumerator.h>

#include "ehd-buf.h"
#include "test-files.h"
#include "json-event.h"

/* The line of @text that holds offset @at. */
static void print_line(const char *label, const char *text, size_t len,
		       size_t at)
{
	size_t s = at, e = at;

	while (s > 0 && text[s - 1] != '\n')
		s--;
	while (e < len && text[e] != '\n')
		e++;
	printf("%s: %.*s\n", label, (int)(e - s), text + s);
}

int main(void)
{
	const char *shared = getenv("EH_SHARED_DIR");
	struct ehd_buf out = EHD_BUF_INIT;
	unsigned char *dat, *want;
	size_t dat_size, want_size, off = 0, i;
	char path[4096];
	struct ehd_enum *en = ehd_enum_new();
	struct tf_record rec;
	int records = 0, err;

	if (!shared)
		shared = "../shared";
	snprintf(path, sizeof(path),
		 "%s/conformance/eventheader/EventHeaderInterceptorLE64.dat",
		 shared);
	dat = tf_slurp(path, &dat_size);
	strcat(path, ".linux.json");
	want = tf_slurp(path, &want_size);
	if (!dat || !want) {
		printf("SKIP: reference corpus not found under %s\n", shared);
		return 77;
	}

	ehd__buf_puts(&out, "\xEF\xBB\xBF\n\"EventHeaderInterceptorLE64.dat\": [");
	while ((err = tf_dat_next(dat, dat_size, &off, &rec)) > 0) {
		ehd__buf_puts(&out, records ? ",\n " : "\n ");
		err = ehd_enum_start(en, rec.name, rec.name_len, rec.event,
				     rec.event_size, 0);
		if (!err)
			err = ehd__json_event(&out, en, NULL,
					      EHD__JF_SPACE | EHD__JF_FIELD_TAGS,
					      EHD__META_DEFAULT);
		if (err) {
			printf("FAIL: record %d (%s): %s\n", records, rec.name,
			       ehd_strerror(err));
			return 1;
		}
		records++;
	}
	if (err < 0) {
		printf("FAIL: bad record framing at offset %zu\n", off);
		return 1;
	}
	ehd__buf_puts(&out, " ]\n");

	for (i = 0; i < out.len && i < want_size; i++)
		if (out.p[i] != (char)want[i])
			break;
	if (i == out.len && i == want_size) {
		printf("json-dat: %d records, %zu bytes: identical to the reference\n",
		       records, out.len);
		ehd__buf_free(&out);
		ehd_enum_free(en);
		free(dat);
		free(want);
		return 0;
	}
	printf("FAIL: output differs from the reference at byte %zu (output %zu bytes, reference %zu)\n",
	       i, out.len, want_size);
	print_line("want", (const char *)want, want_size, i < want_size ? i : want_size - 1);
	print_line("got ", out.p, out.len, i < out.len ? i : out.len - 1);
	{
		FILE *f = fopen("test-json-dat.actual.json", "wb");

		if (f) {
			fwrite(out.p, 1, out.len, f);
			fclose(f);
			printf("whole output: test-json-dat.actual.json\n");
		}
	}
	return 1;
}
