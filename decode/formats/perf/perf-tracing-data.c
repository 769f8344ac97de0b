// SPDX-License-Identifier: MIT
/*
 * perf-tracing-data.c - perf's TRACING_DATA: the tracefs files that
 * describe the tracepoints of a recording
 *
 * Layout (numbers in the byte order that the endianness byte gives):
 *
 *	"\x17\x08\x44tracing"	10 bytes
 *	version			NUL-terminated ("0.6")
 *	big_endian		u8
 *	long_size		u8
 *	page_size		u32
 *	"header_page\0"		then u64 size, text
 *	"header_event\0"	then u64 size, text
 *	ftrace formats		u32 count, then each u64 size, text
 *	event formats		u32 systems, each: NUL-terminated system,
 *				u32 count, then each u64 size, text
 *	kallsyms		u32 size, text
 *	printk formats		u32 size, text
 *	saved_cmdline		u64 size, text (version 0.6 and later)
 *
 * The format files go to libtraceevent, which parses them.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <byteswap.h>
#include <endian.h>

#include <event-parse.h>

#include "formats/perf/perf-file-int.h"

static const char tracing_magic[10] = "\x17\x08\x44tracing";

struct cursor {
	char *p;
	size_t size;
	size_t off;
	bool swap;
	struct ehd__perf_tracing_err *err;
};

static int bad(struct cursor *c, const char *why)
{
	c->err->offset = c->off;
	c->err->why = why;
	return -EBADMSG;
}

static int get_u32(struct cursor *c, uint32_t *v, const char *what)
{
	if (c->size - c->off < 4)
		return bad(c, what);
	memcpy(v, c->p + c->off, 4);
	if (c->swap)
		*v = bswap_32(*v);
	c->off += 4;
	return 0;
}

static int get_u64(struct cursor *c, uint64_t *v, const char *what)
{
	if (c->size - c->off < 8)
		return bad(c, what);
	memcpy(v, c->p + c->off, 8);
	if (c->swap)
		*v = bswap_64(*v);
	c->off += 8;
	return 0;
}

/* A block of @len bytes at the cursor; *@out points to it. */
static int get_block(struct cursor *c, uint64_t len, char **out,
		     const char *what)
{
	if (len > c->size - c->off)
		return bad(c, what);
	*out = c->p + c->off;
	c->off += (size_t)len;
	return 0;
}

/* A u64 size, then that many bytes. */
static int get_sized64(struct cursor *c, char **out, size_t *len,
		       const char *what)
{
	uint64_t n;
	int r;

	r = get_u64(c, &n, what);
	if (!r)
		r = get_block(c, n, out, what);
	if (!r)
		*len = (size_t)n;
	return r;
}

static int get_sized32(struct cursor *c, char **out, size_t *len,
		       const char *what)
{
	uint32_t n;
	int r;

	r = get_u32(c, &n, what);
	if (!r)
		r = get_block(c, n, out, what);
	if (!r)
		*len = n;
	return r;
}

/* A NUL-terminated string of at most @max bytes before the NUL. */
static int get_cstr(struct cursor *c, size_t max, const char **out,
		    const char *what)
{
	size_t left = c->size - c->off;
	char *nul;

	nul = memchr(c->p + c->off, 0, left < max + 1 ? left : max + 1);
	if (!nul)
		return bad(c, what);
	*out = c->p + c->off;
	c->off = (size_t)(nul - c->p) + 1;
	return 0;
}

/* Expects the literal @lit, NUL included. */
static int expect(struct cursor *c, const char *lit, const char *what)
{
	size_t n = strlen(lit) + 1;

	if (c->size - c->off < n || memcmp(c->p + c->off, lit, n))
		return bad(c, what);
	c->off += n;
	return 0;
}

/* "0.6" and later carry saved_cmdline. */
static bool version_has_cmdline(const char *v)
{
	unsigned long major, minor = 0;
	char *end;

	major = strtoul(v, &end, 10);
	if (*end == '.')
		minor = strtoul(end + 1, NULL, 10);
	return major > 0 || minor >= 6;
}

static bool ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

static bool space_char(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/*
 * Where libtraceevent would find the tokens "print" "fmt" of a format
 * file, or @len. Tokens are runs of identifier characters; whitespace and
 * newlines between them do not count.
 */
static size_t find_print_fmt(const char *text, size_t len)
{
	size_t i, j;

	for (i = 0; i + 5 <= len; i++) {
		if (memcmp(text + i, "print", 5) || (i && ident_char(text[i - 1])))
			continue;
		for (j = i + 5; j < len && space_char(text[j]); j++)
			;
		if (j == i + 5 || j + 3 > len || memcmp(text + j, "fmt", 3) ||
		    (j + 3 < len && ident_char(text[j + 3])))
			continue;
		return i;
	}
	return len;
}

/*
 * One format file; libtraceevent's failures only count. Without
 * @print_fmt the "print fmt:" part is replaced by an empty one:
 * libtraceevent 1.7 can crash on a damaged print fmt (or on one that
 * names a field that is not there), and the fields are all a decoder
 * needs.
 */
/* Does @tep have the event of this format ("ID: n" line) already? */
static bool known_event(struct tep_handle *tep, const char *text, size_t len)
{
	static const char key[] = "\nID: ";
	size_t i;

	for (i = 0; i + sizeof(key) - 1 < len; i++) {
		unsigned long id = 0;
		size_t k;

		if (memcmp(text + i, key, sizeof(key) - 1))
			continue;
		k = i + sizeof(key) - 1;
		if (k >= len || text[k] < '0' || text[k] > '9')
			return false;
		for (; k < len && text[k] >= '0' && text[k] <= '9'; k++) {
			id = id * 10 + (unsigned long)(text[k] - '0');
			if (id > INT_MAX)
				return false;
		}
		return tep_find_event(tep, (int)id) != NULL;
	}
	return false;
}

static bool brackets_closed(const char *text, size_t len)
{
	const char *open = memrchr(text, '[', len);

	return !open || memchr(open, ']', len - (size_t)(open - text));
}

static int parse_format(struct tep_handle *tep, struct ehd__perf_session *s,
			const char *text, size_t len, const char *sys,
			bool print_fmt)
{
	static const char empty[] = "print fmt: \"\"\n";
	size_t keep = find_print_fmt(text, len), i;
	char *copy = NULL;

	/*
	 * Its tokenizer also trips (NULL dereference) over control bytes
	 * and bytes >= 0x7F: a format file is ASCII text.
	 */
	for (i = 0; i < keep; i++) {
		unsigned char c = (unsigned char)text[i];

		if ((c < 0x20 && (c < 0x09 || c > 0x0D)) || c >= 0x7F) {
			s->format_errors++;
			s->format_count++;
			return 0;
		}
	}
	if (print_fmt)
		keep = len;
	/* A later tracing data record repeats the formats known already. */
	if (known_event(tep, text, keep))
		return 0;

	if (keep < len) {
		copy = malloc(keep + sizeof(empty));
		if (!copy)
			return -ENOMEM;
		memcpy(copy, text, keep);
		memcpy(copy + keep, empty, sizeof(empty));
		text = copy;
		len = keep + sizeof(empty) - 1;
	}
	/*
	 * It reads an array's dimensions up to a "]" token without looking
	 * for the end of the text (a NULL dereference there, libtraceevent
	 * 1.7): a "[" must have a "]" after it.
	 */
	if (!brackets_closed(text, len) || tep_parse_event(tep, text, len, sys))
		s->format_errors++;
	s->format_count++;
	free(copy);
	return 0;
}

/*
 * A printk_formats line is "address : format". libtraceevent skips one
 * character after the first ':' without looking, so a line without a
 * character after it would make it read past its copy: such lines (only
 * in damaged data, or a format of less than three characters) are left
 * out.
 */
static bool printk_line_ok(const char *line, size_t len)
{
	size_t i = 0, rest;

	while (i < len && line[i] == ':')
		i++;
	if (i == len)
		return false;
	while (i < len && line[i] != ':')
		i++;
	if (len - i < 2)
		return false;
	/*
	 * It then skips a quote and looks at the last three characters
	 * (for a closing quote and "\n") without checking there are three.
	 */
	rest = len - i - 2;
	if (rest && line[i + 2] == '"')
		rest--;
	return rest >= 3;
}

/*
 * Feeds a text part to a libtraceevent parser that wants a C string;
 * with @printk only the lines that printk_line_ok() accepts.
 */
static int parse_text(struct tep_handle *tep, const char *text, size_t len,
		      int (*fn)(struct tep_handle *, const char *), bool printk)
{
	size_t i = 0, n = 0, eol;
	char *copy;

	if (!len)
		return 0;
	copy = malloc(len + 1);
	if (!copy)
		return -ENOMEM;
	while (i < len) {
		const char *nl = memchr(text + i, '\n', len - i);

		eol = nl ? (size_t)(nl - text) : len;
		/* A NUL would end the C string early: it ends the line too. */
		nl = memchr(text + i, 0, eol - i);
		if (nl)
			eol = (size_t)(nl - text);
		if (!printk || printk_line_ok(text + i, eol - i)) {
			memcpy(copy + n, text + i, eol - i);
			n += eol - i;
			copy[n++] = '\n';
		}
		i = eol + 1;
	}
	copy[n < len ? n : len] = 0;
	if (n)
		fn(tep, copy);	/* a text it cannot use is not fatal */
	free(copy);
	return 0;
}

int ehd__perf_parse_tracing(struct tep_handle *tep, struct ehd__perf_session *s,
			    char *data, size_t size, bool print_fmt,
			    struct ehd__perf_tracing_err *err)
{
	struct cursor c = { data, size, 0, false, err };
	const char *version, *sys;
	uint32_t page_size, nftrace, nsys, nev, i, j;
	unsigned char be, long_size;
	char *text;
	size_t len;
	int r;

	if (size < sizeof(tracing_magic) ||
	    memcmp(data, tracing_magic, sizeof(tracing_magic)))
		return bad(&c, "no tracing data signature");
	c.off = sizeof(tracing_magic);
	r = get_cstr(&c, 15, &version, "bad tracing data version");
	if (r)
		return r;
	if (c.size - c.off < 2)
		return bad(&c, "tracing data truncated in its header");
	be = (unsigned char)data[c.off];
	long_size = (unsigned char)data[c.off + 1];
	if (be > 1)
		return bad(&c, "tracing data endianness byte is not 0 or 1");
	if (long_size != 4 && long_size != 8)
		return bad(&c, "tracing data long size is not 4 or 8");
	c.off += 2;
	c.swap = (be != 0) != (__BYTE_ORDER == __BIG_ENDIAN);
	r = get_u32(&c, &page_size, "tracing data truncated in its header");
	if (r)
		return r;

	s->tracing_version = version;
	s->tracing_big_endian = be;
	s->tracing_long_size = long_size;
	s->tracing_page_size = page_size;
	tep_set_file_bigendian(tep, be ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_long_size(tep, long_size);
	tep_set_page_size(tep, (int)page_size);

	r = expect(&c, "header_page", "tracing data: no header_page");
	if (!r)
		r = get_sized64(&c, &text, &len, "tracing data: bad header_page");
	if (r)
		return r;
	s->header_page = text;
	s->header_page_size = len;
	if (len && tep_parse_header_page(tep, text, len, long_size))
		s->format_errors++;

	r = expect(&c, "header_event", "tracing data: no header_event");
	if (!r)
		r = get_sized64(&c, &text, &len, "tracing data: bad header_event");
	if (r)
		return r;
	s->header_event = text;
	s->header_event_size = len;

	r = get_u32(&c, &nftrace, "tracing data: no ftrace format count");
	if (r)
		return r;
	for (i = 0; i < nftrace; i++) {
		r = get_sized64(&c, &text, &len, "tracing data: bad ftrace format");
		if (r)
			return r;
		r = parse_format(tep, s, text, len, "ftrace", print_fmt);
		if (r)
			return r;
		s->ftrace_count++;
	}

	r = get_u32(&c, &nsys, "tracing data: no system count");
	if (r)
		return r;
	for (i = 0; i < nsys; i++) {
		r = get_cstr(&c, 4096, &sys, "tracing data: bad system name");
		if (!r)
			r = get_u32(&c, &nev, "tracing data: no event format count");
		if (r)
			return r;
		for (j = 0; j < nev; j++) {
			r = get_sized64(&c, &text, &len,
					"tracing data: bad event format");
			if (r)
				return r;
			r = parse_format(tep, s, text, len, sys, print_fmt);
			if (r)
				return r;
		}
	}

	r = get_sized32(&c, &text, &len, "tracing data: bad kallsyms");
	if (r)
		return r;
	s->kallsyms = text;
	s->kallsyms_size = len;
	r = parse_text(tep, text, len, tep_parse_kallsyms, false);
	if (r)
		return r;

	r = get_sized32(&c, &text, &len, "tracing data: bad printk formats");
	if (r)
		return r;
	s->printk = text;
	s->printk_size = len;
	r = parse_text(tep, text, len, tep_parse_printk_formats, true);
	if (r)
		return r;

	if (version_has_cmdline(version)) {
		r = get_sized64(&c, &text, &len,
				"tracing data: bad saved_cmdline");
		if (r)
			return r;
		s->saved_cmdline = text;
		s->saved_cmdline_size = len;
		r = parse_text(tep, text, len, tep_parse_saved_cmdlines, false);
		if (r)
			return r;
	}
	/* What follows (pipe mode pads to 8 bytes) is ignored. */
	return 0;
}
