// SPDX-License-Identifier: MIT
/*
 * activity - an activity with a start, a step and a stop event
 *
 * An activity groups the events of one piece of work: the start event
 * (opcode ACTIVITY_START) carries a new id and, for nested work, the id of
 * the parent; events within carry the id; the stop event ends it.
 * Decoders show the ids as "activity" and "relatedActivity".
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <eventheader/eh-provider.h>

EH_DEFINE_PROVIDER(activity_provider, "EhExample_Activity");

/* A version 4 (random) UUID in RFC 4122 byte order. */
static void new_id(uint8_t id[16])
{
	static uint64_t state;
	int i;

	if (!state)
		state = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
	for (i = 0; i < 16; i++) {
		state = state * 6364136223846793005ULL + 1442695040888963407ULL;
		id[i] = (uint8_t)(state >> 56);
	}
	id[6] = (id[6] & 0x0f) | 0x40;
	id[8] = (id[8] & 0x3f) | 0x80;
}

static void transfer(const uint8_t parent[16], int bytes)
{
	uint8_t id[16];

	new_id(id);
	EH_WRITE_ACTIVITY(activity_provider, "Transfer", id, parent,
			  EH_OPCODE(EH_OPCODE_ACTIVITY_START),
			  EH_LEVEL(EH_LEVEL_INFO), EH_INT32("bytes", bytes));
	EH_WRITE_ACTIVITY(activity_provider, "Progress", id, NULL,
			  EH_LEVEL(EH_LEVEL_VERBOSE), EH_INT32("done", bytes / 2));
	EH_WRITE_ACTIVITY(activity_provider, "Transfer", id, NULL,
			  EH_OPCODE(EH_OPCODE_ACTIVITY_STOP),
			  EH_LEVEL(EH_LEVEL_INFO), EH_ERRNO("result", 0));
}

int main(void)
{
	uint8_t session[16];
	int err;

	err = EH_REGISTER(activity_provider);
	if (err)
		fprintf(stderr, "activity: tracing unavailable (%s); running anyway\n",
			strerror(err));
	new_id(session);
	EH_WRITE_ACTIVITY(activity_provider, "Session", session, NULL,
			  EH_OPCODE(EH_OPCODE_ACTIVITY_START),
			  EH_LEVEL(EH_LEVEL_INFO));
	transfer(session, 4096);
	transfer(session, 512);
	EH_WRITE_ACTIVITY(activity_provider, "Session", session, NULL,
			  EH_OPCODE(EH_OPCODE_ACTIVITY_STOP),
			  EH_LEVEL(EH_LEVEL_INFO));
	EH_UNREGISTER(activity_provider);
	printf("activity: one session with two transfers written\n");
	return 0;
}
