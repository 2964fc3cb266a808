/*
 * contents-index.c: a compact, memory-mapped index of Contents files.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "conflicts/contents-index.h"
#include "conflicts/spool.h"

#define MAGIC "DHXCIDX1"
#define VERSION 1
/* Distinguishes a file written on a host of the other byte order. */
#define BYTE_ORDER_MARK 0x01020304u

struct contents_index_header {
	char magic[8];
	uint32_t version;
	uint32_t byte_order;
	uint32_t block;
	uint32_t reserved;
	uint64_t nentries, nlists, npackages, nslots;
	uint64_t lines, bad_lines;
	uint64_t entries_off, entries_len;
	uint64_t blocks_off;
	uint64_t lists_off, list_text_off, list_text_len;
	uint64_t packages_off, package_text_off, package_text_len;
	uint64_t slots_off;
	uint64_t file_size;
	char label[CONTENTS_LABEL_MAX + 1];
};

/* A growable byte buffer. */
struct buf {
	unsigned char *data;
	size_t len, cap;
};

static void
buf_reserve(struct buf *b, size_t more)
{
	if (b->len + more <= b->cap)
		return;
	while (b->len + more > b->cap)
		b->cap = b->cap ? b->cap * 2 : 1 << 16;
	b->data = realloc(b->data, b->cap);
	if (b->data == NULL)
		abort();
}

static void
buf_add(struct buf *b, const void *p, size_t n)
{
	buf_reserve(b, n);
	memcpy(b->data + b->len, p, n);
	b->len += n;
}

static inline unsigned char *
put_varint(unsigned char *p, uint64_t v)
{
	while (v >= 0x80) {
		*p++ = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	*p++ = (unsigned char)v;
	return p;
}

/* An open-addressing set of strings kept in a text buffer. */
struct strset {
	uint32_t *slots;	/* id + 1, 0 empty */
	uint32_t *hashes;	/* per id */
	uint64_t *offsets;	/* per id, into text; length in lens */
	uint32_t *lens;
	size_t mask, n, cap;
	struct buf text;
};

static void
strset_grow(struct strset *s)
{
	size_t size = s->mask ? (s->mask + 1) * 2 : 1024, i;

	free(s->slots);
	s->slots = calloc(size, sizeof(*s->slots));
	if (s->slots == NULL)
		abort();
	s->mask = size - 1;
	for (i = 0; i < s->n; i++) {
		size_t pos = s->hashes[i] & s->mask;

		while (s->slots[pos])
			pos = (pos + 1) & s->mask;
		s->slots[pos] = i + 1;
	}
}

/* The id of STR, added if new; *ADDED says which. */
static uint32_t
strset_intern(struct strset *s, const char *str, size_t len, bool *added)
{
	uint32_t h = (uint32_t)contents_hash(str, len);
	size_t pos;

	if ((s->n + 1) * 2 > s->mask + 1)
		strset_grow(s);
	for (pos = h & s->mask; s->slots[pos]; pos = (pos + 1) & s->mask) {
		uint32_t id = s->slots[pos] - 1;

		if (s->hashes[id] == h && s->lens[id] == len &&
		    memcmp(s->text.data + s->offsets[id], str, len) == 0) {
			*added = false;
			return id;
		}
	}
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 1024;
		s->hashes = realloc(s->hashes, s->cap * sizeof(*s->hashes));
		s->offsets = realloc(s->offsets, s->cap * sizeof(*s->offsets));
		s->lens = realloc(s->lens, s->cap * sizeof(*s->lens));
		if (!s->hashes || !s->offsets || !s->lens)
			abort();
	}
	s->hashes[s->n] = h;
	s->offsets[s->n] = s->text.len;
	s->lens[s->n] = len;
	buf_add(&s->text, str, len);
	s->slots[pos] = s->n + 1;
	*added = true;
	return s->n++;
}

static void
strset_free(struct strset *s)
{
	free(s->slots);
	free(s->hashes);
	free(s->offsets);
	free(s->lens);
	free(s->text.data);
}

struct contents_builder {
	char label[CONTENTS_LABEL_MAX + 1];
	char *path, *tmp;
	int fd;
	struct contents_stats stats;
	/* The entries go to the file while the rest is being built. */
	struct spool *entries;
	uint64_t *blocks;
	size_t nblocks, blocks_cap;
	uint64_t *hashes;
	size_t nentries, hashes_cap;
	char prev[CONTENTS_PATH_MAX];
	size_t prevlen;
	/* Raw package lists as written, and their section-less text. */
	struct strset raw_lists;
	struct buf list_text;
	uint32_t *list_offsets;
	size_t list_offsets_cap;
	const char *last_raw;
	size_t last_raw_len;
	uint32_t last_list;
	struct strset packages;
	/* The package lists of lines not kept: only their names count. */
	struct strset other_lists;
};

struct contents_builder *
contents_builder_new(const char *label, const char *path,
                     struct dpkg_error *err)
{
	struct contents_builder *b = calloc(1, sizeof(*b));

	if (b == NULL)
		abort();
	snprintf(b->label, sizeof(b->label), "%s", label);
	b->path = strdup(path);
	if (b->path == NULL || asprintf(&b->tmp, "%s.new-XXXXXX", path) < 0)
		abort();
	b->fd = mkostemp(b->tmp, O_CLOEXEC);
	if (b->fd < 0) {
		dpkg_put_errno(err, "%s: cannot create temporary file", path);
		free(b->tmp);
		b->tmp = NULL;
		contents_builder_free(b);
		return NULL;
	}
	b->entries = spool_new(b->fd, sizeof(struct contents_index_header));
	return b;
}

/* A new list: keep its names without area or section. */
static void
add_list(struct contents_builder *b, const char *pkgs, size_t len)
{
	const char *p = pkgs, *end = pkgs + len;
	size_t id = b->raw_lists.n - 1;

	if (id + 2 > b->list_offsets_cap) {
		b->list_offsets_cap = b->list_offsets_cap ?
		                      b->list_offsets_cap * 2 : 1024;
		b->list_offsets = realloc(b->list_offsets,
		                          b->list_offsets_cap *
		                          sizeof(*b->list_offsets));
		if (b->list_offsets == NULL)
			abort();
	}
	b->list_offsets[id] = b->list_text.len;
	while (p < end) {
		const char *comma = memchr(p, ',', end - p);
		size_t itemlen = (comma ? comma : end) - p, namelen;
		const char *name = contents_item_package(p, itemlen, &namelen);
		bool added;

		if (b->list_text.len > b->list_offsets[id])
			buf_add(&b->list_text, ",", 1);
		buf_add(&b->list_text, name, namelen);
		if (namelen > 0)
			strset_intern(&b->packages, name, namelen, &added);
		p += itemlen + 1;
	}
	b->list_offsets[id + 1] = b->list_text.len;
}

static uint32_t
list_id(struct contents_builder *b, const char *pkgs, size_t len)
{
	bool added;
	uint32_t id;

	/* Neighbouring paths often come from the same package. */
	if (b->last_raw && len == b->last_raw_len &&
	    memcmp(pkgs, b->last_raw, len) == 0)
		return b->last_list;
	id = strset_intern(&b->raw_lists, pkgs, len, &added);
	if (added)
		add_list(b, pkgs, len);
	b->last_raw = (const char *)b->raw_lists.text.data +
	              b->raw_lists.offsets[id];
	b->last_raw_len = len;
	b->last_list = id;
	return id;
}

/* The names of a list whose paths are not kept: once per list. */
static void
add_names(struct contents_builder *b, const char *pkgs, size_t len)
{
	const char *p = pkgs, *end = pkgs + len;
	bool added;

	strset_intern(&b->other_lists, pkgs, len, &added);
	while (added && p < end) {
		const char *comma = memchr(p, ',', end - p);
		size_t itemlen = (comma ? comma : end) - p, namelen;
		const char *name = contents_item_package(p, itemlen, &namelen);
		bool new_name;

		if (namelen > 0)
			strset_intern(&b->packages, name, namelen, &new_name);
		p += itemlen + 1;
	}
}

static void
add_entry(void *ctx, const char *path, size_t len, uint64_t hash,
          const char *pkgs, size_t pkglen)
{
	struct contents_builder *b = ctx;
	size_t shared = 0;
	uint32_t list;
	unsigned char *p;

	if (path == NULL) {
		add_names(b, pkgs, pkglen);
		return;
	}
	if (len >= CONTENTS_PATH_MAX) {
		b->stats.bad_lines++;
		b->stats.entries--;
		b->stats.kept--;
		return;
	}
	list = list_id(b, pkgs, pkglen);
	if (b->nentries == b->hashes_cap) {
		b->hashes_cap = b->hashes_cap ? b->hashes_cap * 2 : 1 << 16;
		b->hashes = realloc(b->hashes, b->hashes_cap * sizeof(uint64_t));
		if (b->hashes == NULL)
			abort();
	}
	b->hashes[b->nentries] = hash;
	if (b->nentries % CONTENTS_BLOCK == 0) {
		if (b->nblocks == b->blocks_cap) {
			b->blocks_cap = b->blocks_cap ? b->blocks_cap * 2 : 4096;
			b->blocks = realloc(b->blocks,
			                    b->blocks_cap * sizeof(uint64_t));
			if (b->blocks == NULL)
				abort();
		}
		b->blocks[b->nblocks++] = spool_length(b->entries);
	} else {
		size_t max = len < b->prevlen ? len : b->prevlen;

		while (shared < max && b->prev[shared] == path[shared])
			shared++;
	}
	p = spool_reserve(b->entries, 3 * 10 + len - shared);
	p = put_varint(p, shared);
	p = put_varint(p, len - shared);
	memcpy(p, path + shared, len - shared);
	p = put_varint(p + len - shared, list);
	spool_commit(b->entries, p);
	memcpy(b->prev + shared, path + shared, len - shared);
	b->prevlen = len;
	b->nentries++;
}

int
contents_builder_add(struct contents_builder *b,
                     const char *const *filenames, int nfiles,
                     struct dpkg_error *err)
{
	return contents_read(filenames, nfiles, add_entry, b, &b->stats, err);
}

const struct contents_stats *
contents_builder_stats(const struct contents_builder *b)
{
	return &b->stats;
}

static inline uint64_t
home_slot(uint64_t h, uint64_t nslots)
{
	return ((h >> 32) * nslots) >> 32;
}

/*
 * Fill the slots in order of home slot, so that the writes walk the table
 * once instead of jumping around it: bucket the (hash, entry) pairs by the
 * top bits of the hash first (home_slot() grows with them).
 */
struct pair {
	uint64_t hash;
	uint64_t entry;
};

static uint64_t *
build_slots(const struct contents_builder *b, uint64_t nslots)
{
	enum { BUCKET_BITS = 12, NBUCKETS = 1 << BUCKET_BITS };
	uint64_t *slots = malloc(nslots * sizeof(*slots));
	struct pair *pairs = malloc((b->nentries + 1) * sizeof(*pairs));
	size_t *start = calloc(NBUCKETS + 1, sizeof(*start));
	size_t i;

	if (slots == NULL || pairs == NULL || start == NULL)
		abort();
	memset(slots, 0, nslots * sizeof(*slots));
	for (i = 0; i < b->nentries; i++)
		start[(b->hashes[i] >> (64 - BUCKET_BITS)) + 1]++;
	for (i = 1; i <= NBUCKETS; i++)
		start[i] += start[i - 1];
	for (i = 0; i < b->nentries; i++) {
		uint64_t h = b->hashes[i];
		struct pair *p = &pairs[start[h >> (64 - BUCKET_BITS)]++];

		p->hash = h;
		p->entry = i;
	}
	for (i = 0; i < b->nentries; i++) {
		uint64_t h = pairs[i].hash, pos = home_slot(h, nslots);

		while (slots[pos])
			if (++pos == nslots)
				pos = 0;
		slots[pos] = (h << 32) | (pairs[i].entry + 1);
	}
	free(pairs);
	free(start);
	return slots;
}

static int
cmp_names(const void *a, const void *b, void *arg)
{
	const struct strset *s = arg;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	size_t lx = s->lens[x], ly = s->lens[y];
	int c = memcmp(s->text.data + s->offsets[x],
	               s->text.data + s->offsets[y], lx < ly ? lx : ly);

	return c ? c : (lx > ly) - (lx < ly);
}

static int
write_all(int fd, const void *p, size_t n)
{
	const char *c = p;

	while (n > 0) {
		ssize_t w = write(fd, c, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		c += w;
		n -= w;
	}
	return 0;
}

/* Pad FD's content to a multiple of 8 bytes. */
static int
align8(int fd, uint64_t *off)
{
	static const char zeros[8];
	size_t pad = (8 - *off % 8) % 8;

	*off += pad;
	return pad ? write_all(fd, zeros, pad) : 0;
}

static int
write_section(int fd, uint64_t *off, uint64_t *where, const void *p,
              size_t n)
{
	if (align8(fd, off) < 0)
		return -1;
	*where = *off;
	*off += n;
	return write_all(fd, p, n);
}

/* Everything after the entries, then the header. */
static int
write_index(struct contents_builder *b, int fd, uint64_t entries_len,
            uint64_t *slots, uint64_t nslots)
{
	struct contents_index_header h;
	const struct strset *pk = &b->packages;
	uint32_t *order = malloc((pk->n + 1) * sizeof(*order));
	uint32_t *pkoff = malloc((pk->n + 1) * sizeof(*pkoff));
	struct buf pktext = { 0 };
	uint64_t off = sizeof(h) + entries_len;
	uint32_t empty_list = 0;
	size_t i;
	int ret = 0;

	if (order == NULL || pkoff == NULL)
		abort();
	for (i = 0; i < pk->n; i++)
		order[i] = i;
	qsort_r(order, pk->n, sizeof(*order), cmp_names, (void *)pk);
	for (i = 0; i < pk->n; i++) {
		pkoff[i] = pktext.len;
		buf_add(&pktext, pk->text.data + pk->offsets[order[i]],
		        pk->lens[order[i]]);
	}
	pkoff[pk->n] = pktext.len;

	memset(&h, 0, sizeof(h));
	memcpy(h.magic, MAGIC, 8);
	h.version = VERSION;
	h.byte_order = BYTE_ORDER_MARK;
	h.block = CONTENTS_BLOCK;
	h.nentries = b->nentries;
	h.nlists = b->raw_lists.n;
	h.npackages = pk->n;
	h.nslots = nslots;
	h.lines = b->stats.lines;
	h.bad_lines = b->stats.bad_lines;
	snprintf(h.label, sizeof(h.label), "%s", b->label);
	h.entries_off = sizeof(h);
	if (lseek(fd, off, SEEK_SET) < 0 ||
	    write_section(fd, &off, &h.blocks_off, b->blocks,
	                  b->nblocks * sizeof(uint64_t)) < 0 ||
	    write_section(fd, &off, &h.lists_off,
	                  b->list_offsets ? b->list_offsets : &empty_list,
	                  (b->raw_lists.n + 1) * sizeof(uint32_t)) < 0 ||
	    write_section(fd, &off, &h.list_text_off, b->list_text.data,
	                  b->list_text.len) < 0 ||
	    write_section(fd, &off, &h.packages_off, pkoff,
	                  (pk->n + 1) * sizeof(uint32_t)) < 0 ||
	    write_section(fd, &off, &h.package_text_off, pktext.data,
	                  pktext.len) < 0 ||
	    write_section(fd, &off, &h.slots_off, slots,
	                  nslots * sizeof(uint64_t)) < 0)
		ret = -1;
	h.entries_len = entries_len;
	h.list_text_len = b->list_text.len;
	h.package_text_len = pktext.len;
	h.file_size = off;
	if (ret == 0 && (lseek(fd, 0, SEEK_SET) < 0 ||
	                 write_all(fd, &h, sizeof(h)) < 0))
		ret = -1;
	free(order);
	free(pkoff);
	free(pktext.data);
	return ret;
}

int
contents_builder_write(struct contents_builder *b, struct dpkg_error *err)
{
	/* Load factor 0.8: misses stop at an empty slot within a line. */
	uint64_t nslots = b->nentries + b->nentries / 4 + 1;
	uint64_t entries_len = spool_length(b->entries), *slots;
	int ret = 0, error;

	error = spool_finish(b->entries);
	b->entries = NULL;
	if (error != 0) {
		errno = error;
		return dpkg_put_errno(err, "%s: cannot write", b->tmp);
	}
	if (b->nentries >= UINT32_MAX)
		return dpkg_put_error(err, "%s: too many entries", b->path);
	slots = build_slots(b, nslots);
	if (write_index(b, b->fd, entries_len, slots, nslots) < 0 ||
	    fchmod(b->fd, 0644) < 0 || fsync(b->fd) < 0)
		ret = dpkg_put_errno(err, "%s: cannot write", b->tmp);
	free(slots);
	if (close(b->fd) < 0 && ret == 0)
		ret = dpkg_put_errno(err, "%s: cannot write", b->tmp);
	b->fd = -1;
	if (ret == 0 && rename(b->tmp, b->path) < 0)
		ret = dpkg_put_errno(err, "%s: cannot rename %s", b->path,
		                     b->tmp);
	if (ret == 0) {
		free(b->tmp);
		b->tmp = NULL;
	}
	return ret;
}

void
contents_builder_free(struct contents_builder *b)
{
	if (b == NULL)
		return;
	if (b->entries != NULL)
		spool_finish(b->entries);
	if (b->fd >= 0)
		close(b->fd);
	/* Not committed: no temporary file left behind. */
	if (b->tmp != NULL)
		unlink(b->tmp);
	free(b->tmp);
	free(b->path);
	free(b->blocks);
	free(b->hashes);
	strset_free(&b->raw_lists);
	free(b->list_text.data);
	free(b->list_offsets);
	strset_free(&b->packages);
	strset_free(&b->other_lists);
	free(b);
}

struct contents_index {
	void *map;
	size_t size;
	const struct contents_index_header *h;
	const unsigned char *entries;
	const uint64_t *blocks;
	const uint32_t *lists;
	const char *list_text;
	const uint32_t *packages;
	const char *package_text;
	const uint64_t *slots;
};

static bool
section_ok(uint64_t off, uint64_t len, uint64_t size)
{
	return off <= size && len <= size - off && off % 8 == 0;
}

/* Whether the offset tables stay inside their texts and are ordered. */
static bool
offsets_ok(const uint32_t *o, uint64_t n, uint64_t textlen)
{
	uint64_t i;

	for (i = 0; i < n; i++)
		if (o[i] > o[i + 1])
			return false;
	return o[0] == 0 && o[n] <= textlen;
}

static bool
index_ok(const struct contents_index *idx)
{
	const struct contents_index_header *h = idx->h;
	uint64_t size = idx->size, nblocks;

	if (memcmp(h->magic, MAGIC, 8) != 0 || h->version != VERSION ||
	    h->byte_order != BYTE_ORDER_MARK || h->block != CONTENTS_BLOCK ||
	    h->file_size != size || h->nentries >= UINT32_MAX ||
	    h->nlists >= UINT32_MAX || h->npackages >= UINT32_MAX ||
	    h->nslots <= h->nentries || h->label[CONTENTS_LABEL_MAX] != '\0')
		return false;
	nblocks = (h->nentries + CONTENTS_BLOCK - 1) / CONTENTS_BLOCK;
	if (!section_ok(h->entries_off, h->entries_len, size) ||
	    !section_ok(h->blocks_off, nblocks * 8, size) ||
	    !section_ok(h->lists_off, (h->nlists + 1) * 4, size) ||
	    !section_ok(h->list_text_off, h->list_text_len, size) ||
	    !section_ok(h->packages_off, (h->npackages + 1) * 4, size) ||
	    !section_ok(h->package_text_off, h->package_text_len, size) ||
	    !section_ok(h->slots_off, h->nslots * 8, size))
		return false;
	return offsets_ok((const uint32_t *)((const char *)idx->map +
	                                     h->lists_off),
	                  h->nlists, h->list_text_len) &&
	       offsets_ok((const uint32_t *)((const char *)idx->map +
	                                     h->packages_off),
	                  h->npackages, h->package_text_len);
}

int
contents_index_open(struct contents_index **idxp, const char *path,
                    struct dpkg_error *err)
{
	struct contents_index *idx;
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	*idxp = NULL;
	if (fd < 0)
		return dpkg_put_errno(err, "%s: cannot open", path);
	if (fstat(fd, &st) < 0) {
		close(fd);
		return dpkg_put_errno(err, "%s: cannot stat", path);
	}
	if ((size_t)st.st_size < sizeof(struct contents_index_header)) {
		close(fd);
		return dpkg_put_error(err, "%s: not a Contents index", path);
	}
	idx = calloc(1, sizeof(*idx));
	if (idx == NULL)
		abort();
	idx->size = st.st_size;
	idx->map = mmap(NULL, idx->size, PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	if (idx->map == MAP_FAILED) {
		free(idx);
		return dpkg_put_errno(err, "%s: cannot map", path);
	}
	/* Lookups jump around: read no pages around the one wanted. */
	madvise(idx->map, idx->size, MADV_RANDOM);
	idx->h = idx->map;
	if (!index_ok(idx)) {
		munmap(idx->map, idx->size);
		free(idx);
		return dpkg_put_error(err, "%s: not a Contents index, or a "
		                      "damaged one", path);
	}
#define AT(off) ((const char *)idx->map + (off))
	idx->entries = (const unsigned char *)AT(idx->h->entries_off);
	idx->blocks = (const uint64_t *)AT(idx->h->blocks_off);
	idx->lists = (const uint32_t *)AT(idx->h->lists_off);
	idx->list_text = AT(idx->h->list_text_off);
	idx->packages = (const uint32_t *)AT(idx->h->packages_off);
	idx->package_text = AT(idx->h->package_text_off);
	idx->slots = (const uint64_t *)AT(idx->h->slots_off);
#undef AT
	*idxp = idx;
	return 0;
}

const char *
contents_index_label(const struct contents_index *idx)
{
	return idx->h->label;
}

uint64_t
contents_index_entries(const struct contents_index *idx)
{
	return idx->h->nentries;
}

/* Read a varint at *P, not past END; false when it runs over. */
static inline bool
get_varint(const unsigned char **p, const unsigned char *end, uint64_t *v)
{
	int shift = 0;

	*v = 0;
	while (*p < end && shift < 64) {
		unsigned char c = *(*p)++;

		*v |= (uint64_t)(c & 0x7f) << shift;
		if (!(c & 0x80))
			return true;
		shift += 7;
	}
	return false;
}

/* Decode entry E into PATH (CONTENTS_PATH_MAX bytes); false if damaged. */
static bool
decode_entry(const struct contents_index *idx, uint64_t e, char *path,
             size_t *len, uint64_t *list)
{
	uint64_t block = e / CONTENTS_BLOCK, k;
	const unsigned char *end = idx->entries + idx->h->entries_len;
	const unsigned char *p;
	size_t cur = 0;

	if (idx->blocks[block] > idx->h->entries_len)
		return false;
	p = idx->entries + idx->blocks[block];
	for (k = 0; k <= e % CONTENTS_BLOCK; k++) {
		uint64_t shared, n;

		if (!get_varint(&p, end, &shared) || !get_varint(&p, end, &n) ||
		    shared > cur || shared + n >= CONTENTS_PATH_MAX ||
		    n > (uint64_t)(end - p))
			return false;
		memcpy(path + shared, p, n);
		cur = shared + n;
		p += n;
		if (!get_varint(&p, end, list))
			return false;
	}
	*len = cur;
	return *list < idx->h->nlists;
}

int
contents_index_find(const struct contents_index *idx, const char *path,
                    contents_found_fn *found, void *ctx)
{
	size_t len = strlen(path);
	uint64_t h = contents_hash(path, len), nslots = idx->h->nslots;
	uint64_t pos = home_slot(h, nslots), probes;
	char buf[CONTENTS_PATH_MAX];
	int n = 0;

	for (probes = 0; probes < nslots; probes++) {
		uint64_t s = idx->slots[pos];

		if (s == 0)
			break;
		if ((s >> 32) == (h & 0xffffffffu) &&
		    (s & 0xffffffffu) <= idx->h->nentries) {
			uint64_t e = (s & 0xffffffffu) - 1, list;
			size_t elen;

			if (decode_entry(idx, e, buf, &elen, &list) &&
			    elen == len && memcmp(buf, path, len) == 0) {
				uint32_t a = idx->lists[list];
				uint32_t b = idx->lists[list + 1];

				found(ctx, idx->list_text + a, b - a);
				n++;
			}
		}
		if (++pos == nslots)
			pos = 0;
	}
	return n;
}

bool
contents_index_has_package(const struct contents_index *idx,
                           const char *name)
{
	size_t len = strlen(name);
	uint64_t lo = 0, hi = idx->h->npackages;

	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;
		uint32_t a = idx->packages[mid], b = idx->packages[mid + 1];
		size_t n = b - a;
		int c = memcmp(idx->package_text + a, name, n < len ? n : len);

		if (c == 0)
			c = (n > len) - (n < len);
		if (c == 0)
			return true;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

void
contents_index_close(struct contents_index *idx)
{
	if (idx == NULL)
		return;
	munmap(idx->map, idx->size);
	free(idx);
}
