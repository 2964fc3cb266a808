/*
 * convert-dsc.c: convert a .dsc into a new extras source package.
 */
#include <string.h>

#include "convert-dsc.h"

int
convert_dsc(const char *dsc, const char *outdir,
            const struct convert_options *opt, struct convert_plan *plan,
            struct convert_result *res, struct convert_error *err)
{
	(void)outdir;
	(void)opt;
	memset(res, 0, sizeof(*res));
	convert_plan_init(plan, outdir);
	return convert_fail(err, dsc, 0, "converting a .dsc is not supported yet");
}
