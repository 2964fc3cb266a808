/*
 * review-identity.c: the packages are the ones the store accepted.
 *
 * Given the identity extras-conflicts accept decided, every package must
 * be one of its binary packages, built from its source, and so must be
 * every published package the upload replaces (--previous): a package
 * named like another holder's, or one reviewed as the upgrade of another
 * holder's, is refused by name.
 */
#include <string.h>

#include "review/review.h"

void
review_identity(struct review *r)
{
	const struct identity *id = r->opt.identity;
	size_t i;

	if (id == NULL)
		return;
	for (i = 0; i < r->npackages; i++) {
		const struct debfile *deb = &r->packages[i].deb;

		if (!identity_has_package(id, deb->package))
			review_problem(r, i, "identity", NULL, "package %s is "
			               "not one of app %s's packages, as the "
			               "store accepted them", deb->package,
			               id->app);
		if (strcmp(deb->source, id->source) != 0)
			review_problem(r, i, "identity", NULL, "source %s is "
			               "not %s, the source the store accepted",
			               deb->source, id->source);
	}
	for (i = 0; i < r->nprevious && r->npackages > 0; i++)
		if (!identity_has_package(id, r->previous[i].package))
			review_problem(r, 0, "identity", NULL, "the replaced "
			               "package %s (%s) is not one of app %s's "
			               "packages: an upload replaces only its "
			               "own", r->previous[i].package,
			               r->previous[i].filename, id->app);
}
