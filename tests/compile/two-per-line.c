// SPDX-License-Identifier: MIT
/*
 * Two writes on one source line must be two call sites: two tracepoints,
 * two events. Built with -DEH_INTERCEPTOR by compile-test.sh, which then
 * checks the records. Also covers a provider used from a second file
 * (other-file.c) through EH_DECLARE_PROVIDER.
 */
#include <eventheader/TraceLoggingProvider.h>

EH_DEFINE_PROVIDER(ct_prov, "CompileTest");
TRACELOGGING_DEFINE_PROVIDER(ct_tlg, "CompileTestTlg",
	(0x01234567, 0x89ab, 0xcdef, 0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef));

#define TWO_WRITES(a, b) EH_WRITE(ct_prov, a, EH_LEVEL(4)) | EH_WRITE(ct_prov, b, EH_LEVEL(4))

int other_file_write(void);

int main(void)
{
	int rc = 0;

	if (EH_REGISTER(ct_prov) || TraceLoggingRegister(ct_tlg))
		return 10;
	/* Same line, different levels (different tracepoint names). */
	rc |= EH_WRITE(ct_prov, "A", EH_LEVEL(4), EH_INT32("x", 1)); rc |= EH_WRITE(ct_prov, "B", EH_LEVEL(2), EH_INT32("y", 2));
	/* Same line, same level and keyword (same tracepoint name). */
	rc |= TraceLoggingWrite(ct_tlg, "C", TraceLoggingLevel(3)); rc |= TraceLoggingWrite(ct_tlg, "D", TraceLoggingLevel(3), TraceLoggingInt32(7, "z"));
	/* Two writes from one macro expansion. */
	rc |= TWO_WRITES("E", "F");
	rc |= other_file_write();
	TraceLoggingUnregister(ct_tlg);
	EH_UNREGISTER(ct_prov);
	return rc ? 1 : 0;
}
