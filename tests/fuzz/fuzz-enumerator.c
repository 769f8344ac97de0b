// SPDX-License-Identifier: MIT
/*
 * fuzz-enumerator.c - libFuzzer target: the EventHeader enumerator and
 * the JSON formatter on arbitrary bytes.
 *
 * Input: a tracepoint name, a 0 byte, then the event bytes. Anything is
 * allowed: the decoder must return an error or output, never crash.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <ehdecode/enumerator.h>

#include "core/ehd-buf.h"
#include "formats/json/json-event.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct ehd_enum *en;
	static struct ehd_buf out = EHD_BUF_INIT;
	const uint8_t *nul = memchr(data, 0, size);
	size_t name_len;

	if (!nul)
		return 0;
	if (!en)
		en = ehd_enum_new();
	name_len = (size_t)(nul - data);
	if (ehd_enum_start(en, (const char *)data, name_len, nul + 1,
			   size - name_len - 1, 0) == 0) {
		ehd__buf_reset(&out);
		ehd__json_event(&out, en, NULL, 0x6, 0xffffffffu);
	}
	return 0;
}
