// SPDX-License-Identifier: MIT
/*
 * gen-dyn.c - the TestProviderDyn part of EventHeaderInterceptorLE64.dat
 *
 * Provider "TestProviderDyn", level 5, keyword 1. For each field format
 * 0..18 there is one event named after the format, for each value size 0,
 * 1, 2, 4, 8 and 16 bytes, with four fields: b<size>one and s<size>one hold
 * the value 1 (binary and counted 8-bit string), b<size>big and s<size>big
 * a value with every byte set. Decoders show them as that format when the
 * size fits it (nullable values) and as bytes or text otherwise.
 */
#ifndef EH_INTERCEPTOR
#error "gen-dyn.c writes the interceptor file: build with -DEH_INTERCEPTOR"
#endif

#include <stdio.h>

#include <eventheader/eh-dynamic.h>

#include "gen-dyn.h"

static const char *const format_names[] = {
	"default", "unsigned_int", "signed_int", "hex_int", "errno", "pid",
	"time", "boolean", "float", "hex_bytes", "string8", "string_utf",
	"string_utf_bom", "string_xml", "string_json", "uuid", "port",
	"ip_address", "ip_address_obsolete",
};

/* The value 1 in the corpus's byte order for each size (16: big-endian). */
static const unsigned char one1[] = { 0x01 };
static const unsigned char one2[] = { 0x01, 0x00 };
static const unsigned char one4[] = { 0x01, 0x00, 0x00, 0x00 };
static const unsigned char one8[] = { 0x01, 0, 0, 0, 0, 0, 0, 0 };
static const unsigned char one16[] = { 0, 0, 0, 0, 0, 0, 0, 0,
				       0, 0, 0, 0, 0, 0, 0, 0x01 };
/* A value with every byte set: 0xf0f1... little-endian; 16: f0..ff. */
static const unsigned char big1[] = { 0xf0 };
static const unsigned char big2[] = { 0xf1, 0xf0 };
static const unsigned char big4[] = { 0xf3, 0xf2, 0xf1, 0xf0 };
static const unsigned char big8[] = { 0xf7, 0xf6, 0xf5, 0xf4,
				      0xf3, 0xf2, 0xf1, 0xf0 };
static const unsigned char big16[] = { 0xf0, 0xf1, 0xf2, 0xf3, 0xf4, 0xf5,
				       0xf6, 0xf7, 0xf8, 0xf9, 0xfa, 0xfb,
				       0xfc, 0xfd, 0xfe, 0xff };

static const struct {
	unsigned int size;
	const unsigned char *one;
	const unsigned char *big;
} values[] = {
	{ 0, one1, big1 },
	{ 1, one1, big1 },
	{ 2, one2, big2 },
	{ 4, one4, big4 },
	{ 8, one8, big8 },
	{ 16, one16, big16 },
};

static void add_pair(struct eh_dyn_builder *b, unsigned int size,
		     const char *what, const unsigned char *value,
		     uint8_t format)
{
	char name[32];

	snprintf(name, sizeof(name), "b%u%s", size, what);
	eh_dyn_builder_add_binary(b, name, value, size, format, 0);
	snprintf(name, sizeof(name), "s%u%s", size, what);
	eh_dyn_builder_add_string8(b, name, (const char *)value, size, format,
				   0);
}

void gen_dyn(void)
{
	struct eh_dyn_builder b = EH_DYN_BUILDER_INIT;
	struct eh_dyn_provider prov;
	struct eh_dyn_set *set;
	unsigned int f, v;
	int err;

	err = eh_dyn_provider_open(&prov, "TestProviderDyn", NULL);
	if (err)
		fprintf(stderr, "gen_dyn: eh_dyn_provider_open: %d\n", err);
	set = eh_dyn_provider_register_set(&prov, EH_LEVEL_VERBOSE, 1);

	for (f = 0; f < sizeof(format_names) / sizeof(format_names[0]); f++) {
		for (v = 0; v < sizeof(values) / sizeof(values[0]); v++) {
			eh_dyn_builder_reset(&b, format_names[f], 0);
			add_pair(&b, values[v].size, "one", values[v].one,
				 (uint8_t)f);
			add_pair(&b, values[v].size, "big", values[v].big,
				 (uint8_t)f);
			err = eh_dyn_builder_write(&b, set, NULL, NULL);
			if (err)
				fprintf(stderr, "gen_dyn: %s/%u: write: %d\n",
					format_names[f], values[v].size, err);
		}
	}

	eh_dyn_builder_destroy(&b);
	eh_dyn_provider_close(&prov);
}
