// SPDX-License-Identifier: MIT
/*
 * Writes with no arguments at all, and with attributes but no fields,
 * in every -std mode (strict ISO modes have no ", ##__VA_ARGS__").
 */
#include <eventheader/TraceLoggingProvider.h>

EH_DEFINE_PROVIDER(ct_prov, "CompileTest");

int main(void)
{
	int rc = 0;

	if (EH_REGISTER(ct_prov))
		return 10;
	rc |= EH_WRITE(ct_prov, "Empty");
	rc |= TraceLoggingWrite(ct_prov, "EmptyTlg");
	rc |= EH_WRITE(ct_prov, "OnlyLevel", EH_LEVEL(1));
	rc |= EH_WRITE_ACTIVITY(ct_prov, "EmptyActivity", 0, 0);
	EH_UNREGISTER(ct_prov);
	return rc ? 1 : 0;
}
