/*
 * contents-index.c: a compact, memory-mapped index of Contents files.
 *
 * Building runs in the workers of contents_read_entries(): each numbers
 * the package lists it meets in the index's shared numbering, and drops
 * each entry's (hash, list) into one of NBUCKETS buckets by the hash's
 * top bits.  Once the entries are counted, threads fill the slots bucket
 * range by bucket range and write them to the file: the home slot grows
 * with the hash, so each thread sweeps its part of the table once, while
 * the main thread writes the lists and names that follow the slots.
 *
 * The same Contents give the same bytes, whichever thread met what first:
 * the lists are numbered in the order of their text once all are read,
 * and the entries sharing a home slot are placed in the order of their
 * slot values.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <dpkg/fdio.h>

#include "conflicts/contents-index.h"

#define MAGIC "DHXCIDX4"
#define MAGIC_FAMILY 7	/* the bytes before the version's digit */
#define VERSION 4
/* Distinguishes a file written on a host of the other byte order. */
#define BYTE_ORDER_MARK 0x01020304u
#define HEADER_SIZE 4096
#define TAG_BITS 40
#define LIST_BITS 24
#define LIST_MAX (CONTENTS_DIRECTORY - 2)
#define BUCKET_BITS 8
#define NBUCKETS (1u << BUCKET_BITS)
#define MAX_WORKERS 8
#define HUGE_PAGE (2u << 20)

struct contents_index_header {
	char magic[8];
	uint32_t version;
	uint32_t byte_order;
	uint64_t nentries, ndirs, nlists, npackages, nslots;
	uint64_t lines, bad_lines;
	uint64_t slots_off;
	uint64_t lists_off, list_text_off, list_text_len;
	uint64_t packages_off, package_text_off, package_text_len;
	/* The package names' hash table (strset_hash_table()): a lookup
	 * hashes the name as the builder did. */
	uint64_t package_slots_off, npackage_slots;
	uint64_t file_size;
	char label[CONTENTS_LABEL_MAX + 1];
};

/* A growable byte buffer. */
struct buf {
	char *data;
	size_t len, cap;
};

static void
buf_add(struct buf *b, const void *p, size_t n)
{
	if (b->len + n > b->cap) {
		while (b->len + n > b->cap)
			b->cap = b->cap ? b->cap * 2 : 1 << 16;
		b->data = realloc(b->data, b->cap);
		if (b->data == NULL)
			abort();
	}
	memcpy(b->data + b->len, p, n);
	b->len += n;
}

/*
 * An open-addressing set of strings kept in a text buffer.  A slot holds
 * the string's hash, id + 1 (0: empty), and where its text is, so that a
 * probe reads the slot and then the text, nothing between: the workers
 * look up a package list every few lines.
 */
struct strset_entry {
	uint64_t offset;	/* into text */
	uint32_t len;
	uint32_t hash;
};

#define STRSET_LEN_BITS 24	/* a list lies in one line of a 4 MB chunk */
#define STRSET_LEN_MASK ((1u << STRSET_LEN_BITS) - 1)

struct strset_slot {
	uint32_t hash, id1;
	uint64_t where;		/* offset << STRSET_LEN_BITS | len */
};

struct strset {
	struct strset_slot *slots;
	struct strset_entry *entries;
	size_t mask, n, cap;
	struct buf text;
};

#define STRSET_SLOTS (1u << 17)
#define STRSET_ENTRIES (1u << 17)
#define STRSET_TEXT (4u << 20)

/*
 * SIZE bytes, 2 MB aligned and on huge pages where the kernel gives them:
 * the sets are probed at random, and a TLB miss costs a page walk (two of
 * them in a virtual machine), more than the cache miss itself.
 */
static void *
table_alloc(size_t size)
{
	void *p;

	size = (size + HUGE_PAGE - 1) & ~(size_t)(HUGE_PAGE - 1);
	p = aligned_alloc(HUGE_PAGE, size);
	if (p == NULL)
		abort();
	madvise(p, size, MADV_HUGEPAGE);
	return p;
}

/* Room for a set of the size of a Contents file's package lists (64,000
 * in bookworm), before any growing. */
static void
strset_init(struct strset *s)
{
	s->cap = STRSET_ENTRIES;
	s->entries = table_alloc(s->cap * sizeof(*s->entries));
	s->text.cap = STRSET_TEXT;
	s->text.data = table_alloc(s->text.cap);
}

static void
strset_grow(struct strset *s)
{
	size_t size = s->mask ? (s->mask + 1) * 2 : STRSET_SLOTS, i;

	free(s->slots);
	s->slots = table_alloc(size * sizeof(*s->slots));
	memset(s->slots, 0, size * sizeof(*s->slots));
	s->mask = size - 1;
	for (i = 0; i < s->n; i++) {
		const struct strset_entry *e = &s->entries[i];
		size_t pos = e->hash & s->mask;

		while (s->slots[pos].id1)
			pos = (pos + 1) & s->mask;
		s->slots[pos].hash = e->hash;
		s->slots[pos].id1 = i + 1;
		s->slots[pos].where = e->offset << STRSET_LEN_BITS | e->len;
	}
}

/* The id of STR, added if new; *ADDED says which. */
static uint32_t
strset_intern(struct strset *s, const char *str, size_t len, bool *added)
{
	uint32_t h = (uint32_t)contents_string_hash(str, len);
	size_t pos;

	if (len > STRSET_LEN_MASK)
		abort();
	if ((s->n + 1) * 2 > s->mask + 1)
		strset_grow(s);
	for (pos = h & s->mask; s->slots[pos].id1; pos = (pos + 1) & s->mask) {
		const struct strset_slot *slot = &s->slots[pos];

		if (slot->hash == h && (slot->where & STRSET_LEN_MASK) == len &&
		    memcmp(s->text.data + (slot->where >> STRSET_LEN_BITS),
		           str, len) == 0) {
			*added = false;
			return slot->id1 - 1;
		}
	}
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 1024;
		s->entries = realloc(s->entries, s->cap * sizeof(*s->entries));
		if (s->entries == NULL)
			abort();
	}
	s->entries[s->n].hash = h;
	s->entries[s->n].offset = s->text.len;
	s->entries[s->n].len = len;
	s->slots[pos].hash = h;
	s->slots[pos].id1 = s->n + 1;
	s->slots[pos].where = (uint64_t)s->text.len << STRSET_LEN_BITS | len;
	buf_add(&s->text, str, len);
	*added = true;
	return s->n++;
}

/*
 * S's hashes as the index keeps them: slot = hash << 32 | (id + 1), at
 * the hash modulo *NSLOTS (a power of two, at least twice S's size) or
 * after it, as strset_intern() probes.
 */
static uint64_t *
strset_hash_table(const struct strset *s, uint64_t *nslots)
{
	uint64_t size = 1, *slots;
	size_t i;

	while (size < 2 * s->n + 1)
		size *= 2;
	slots = calloc(size, sizeof(*slots));
	if (slots == NULL)
		abort();
	for (i = 0; i < s->n; i++) {
		uint64_t pos = s->entries[i].hash & (size - 1);

		while (slots[pos])
			pos = (pos + 1) & (size - 1);
		slots[pos] = (uint64_t)s->entries[i].hash << 32 | (i + 1);
	}
	*nslots = size;
	return slots;
}

static void
strset_free(struct strset *s)
{
	free(s->slots);
	free(s->entries);
	free(s->text.data);
}

/* One entry waiting for its slot: the hash, and the index's list number
 * (or CONTENTS_DIRECTORY). */
struct pair {
	uint64_t hash;
	uint32_t list;
};

/*
 * The same in a bucket, in ten bytes: the hash without the bucket's bits
 * above the list's low eight, and the list's high sixteen.  Eight
 * million of them: every byte is 8 MB to fill and read back.
 */
struct packed_pair {
	uint64_t hash_list;
	uint16_t list_high;
} __attribute__((packed));

#define BLOCK_PAIRS 408
struct block {
	struct block *next;
	uint32_t n;
	struct packed_pair v[BLOCK_PAIRS];
};

_Static_assert(sizeof(struct block) == 4096, "a block is a page");

static inline void
pack(struct packed_pair *pp, uint64_t hash, uint32_t list)
{
	pp->hash_list = hash << BUCKET_BITS | (list & 0xff);
	pp->list_high = list >> 8;
}

static inline struct pair
unpack(const struct packed_pair *pp, unsigned bucket)
{
	struct pair pr;

	pr.hash = (uint64_t)bucket << (64 - BUCKET_BITS) |
	          pp->hash_list >> BUCKET_BITS;
	pr.list = (uint32_t)pp->list_high << 8 | (pp->hash_list & 0xff);
	return pr;
}

/* 32 MB slabs, 2 MB aligned: huge pages where the kernel gives them, so
 * filling them costs few page faults. */
#define SLAB_BLOCKS 8192

/*
 * Where a bucket's next pair goes, in its newest block.  Kept apart from
 * the blocks: adding a pair then touches this dense array and the line
 * being written, not also each block's first line for its count.  A
 * block's count is set once it is full, or at the end (close_blocks()).
 */
struct cursor {
	struct packed_pair *next, *end;
};

/* What one worker of contents_read_entries() builds. */
struct part {
	struct contents_builder *b;
	struct block *buckets[NBUCKETS];
	struct cursor cursors[NBUCKETS];
	struct block *slab;
	size_t slab_used;
	struct block **slabs;
	size_t nslabs;
	struct strset lists;	/* package lists as written */
	uint32_t *map;		/* their numbers in the index */
	size_t mapcap;
	struct buf names;	/* a list without areas and sections */
	uint64_t nentries, ndirs;
};

struct contents_builder {
	char label[CONTENTS_LABEL_MAX + 1];
	char *path, *tmp;
	/* PATH.old: the index this one replaces, kept until the next build
	 * removes it, in a thread beside the reading (see below). */
	char *old;
	pthread_t remover;
	bool removing;
	int fd;
	struct contents_stats stats;
	int nparts;
	struct part *parts;
	/* The index's lists (names without area or section) and package
	 * names, which the workers share. */
	pthread_mutex_t lock;
	struct strset lists;
	struct strset packages;
	uint64_t nentries, ndirs;
	/* The lists' numbers in the index, by the order of their text, and
	 * the lists in that order. */
	uint32_t *number, *sorted;
};

/*
 * Freeing an index's 80 MB takes ext4 tens of milliseconds, more with
 * online discard, and renaming over the old index would do it at the end
 * of the build, when nothing else runs.  So the old index keeps a second
 * name, PATH.old, and the next build removes it while it reads.
 */
static void *
remove_old(void *arg)
{
	struct contents_builder *b = arg;

	unlink(b->old);
	return NULL;
}

static void
removed_old(struct contents_builder *b)
{
	if (b->removing)
		pthread_join(b->remover, NULL);
	b->removing = false;
}

struct contents_builder *
contents_builder_new(const char *label, const char *path,
                     struct dpkg_error *err)
{
	struct contents_builder *b = calloc(1, sizeof(*b));
	int i;

	if (b == NULL)
		abort();
	snprintf(b->label, sizeof(b->label), "%s", label);
	b->nparts = contents_workers(MAX_WORKERS);
	b->parts = calloc(b->nparts, sizeof(*b->parts));
	b->path = strdup(path);
	if (b->parts == NULL || b->path == NULL ||
	    asprintf(&b->tmp, "%s.new-XXXXXX", path) < 0 ||
	    asprintf(&b->old, "%s.old", path) < 0)
		abort();
	for (i = 0; i < b->nparts; i++) {
		b->parts[i].b = b;
		strset_init(&b->parts[i].lists);
	}
	strset_init(&b->lists);
	strset_init(&b->packages);
	pthread_mutex_init(&b->lock, NULL);
	b->fd = mkostemp(b->tmp, O_CLOEXEC);
	if (b->fd < 0) {
		dpkg_put_errno(err, "%s: cannot create temporary file", path);
		free(b->tmp);
		b->tmp = NULL;
		contents_builder_free(b);
		return NULL;
	}
	b->removing = pthread_create(&b->remover, NULL, remove_old, b) == 0;
	return b;
}

static struct block *
new_block(struct part *p)
{
	struct block *blk;

	if (p->slab == NULL || p->slab_used == SLAB_BLOCKS) {
		p->slab = aligned_alloc(HUGE_PAGE,
		                        SLAB_BLOCKS * sizeof(struct block));
		if (p->slab != NULL)
			madvise(p->slab, SLAB_BLOCKS * sizeof(struct block),
			        MADV_HUGEPAGE);
		p->slabs = realloc(p->slabs, (p->nslabs + 1) *
		                   sizeof(*p->slabs));
		if (p->slab == NULL || p->slabs == NULL)
			abort();
		p->slabs[p->nslabs++] = p->slab;
		p->slab_used = 0;
	}
	blk = &p->slab[p->slab_used++];
	blk->n = 0;
	blk->next = NULL;
	return blk;
}

/*
 * The index's number of the package list RAW ("utils/a,b" as written), a
 * list of names without areas and sections ("a,b").  The workers share the
 * index's lists; each keeps the number of every list it has seen.
 */
static uint32_t
part_list(struct part *p, const char *raw, size_t len)
{
	struct contents_builder *b = p->b;
	const char *item = raw, *end = raw + len;
	bool added;
	uint32_t id = strset_intern(&p->lists, raw, len, &added), num;

	if (!added)
		return p->map[id];
	p->names.len = 0;
	while (item < end) {
		const char *comma = memchr(item, ',', end - item);
		size_t itemlen = (comma ? comma : end) - item, namelen;
		const char *name = contents_item_package(item, itemlen,
		                                         &namelen);

		if (item != raw)
			buf_add(&p->names, ",", 1);
		buf_add(&p->names, name, namelen);
		item += itemlen + 1;
	}
	/* The package names are gathered from the lists at the end, beside
	 * the slots' filling. */
	pthread_mutex_lock(&b->lock);
	num = strset_intern(&b->lists, p->names.data ? p->names.data : "",
	                    p->names.len, &added);
	pthread_mutex_unlock(&b->lock);
	if (id >= p->mapcap) {
		p->mapcap = p->mapcap ? p->mapcap * 2 : 1024;
		p->map = realloc(p->map, p->mapcap * sizeof(*p->map));
		if (p->map == NULL)
			abort();
	}
	p->map[id] = num;
	return num;
}

/* contents_read_entries()'s callback: each entry to its bucket. */
static void
add_entries(void *ctx, const struct contents_entry *e, size_t n)
{
	struct part *p = ctx;
	const char *last = NULL;
	uint32_t lastlen = 0, list = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned bucket = e[i].hash >> (64 - BUCKET_BITS);
		struct cursor *c = &p->cursors[bucket];

		if (e[i].packages == NULL) {
			p->ndirs++;
		} else {
			/* A run of lines with the same list: one pointer. */
			if (e[i].packages != last || e[i].pkglen != lastlen) {
				last = e[i].packages;
				lastlen = e[i].pkglen;
				list = part_list(p, last, lastlen);
			}
			p->nentries++;
		}
		if (c->next == c->end) {
			struct block *full = p->buckets[bucket];
			struct block *fresh = new_block(p);

			if (full != NULL)
				full->n = BLOCK_PAIRS;
			fresh->next = full;
			p->buckets[bucket] = fresh;
			c->next = fresh->v;
			c->end = fresh->v + BLOCK_PAIRS;
		}
		pack(c->next++, e[i].hash,
		     e[i].packages == NULL ? CONTENTS_DIRECTORY : list);
	}
}

/* Each bucket's newest block's count, from its cursor. */
static void
close_blocks(struct part *p)
{
	unsigned bucket;

	for (bucket = 0; bucket < NBUCKETS; bucket++)
		if (p->buckets[bucket] != NULL)
			p->buckets[bucket]->n =
				p->cursors[bucket].next -
				p->buckets[bucket]->v;
}

int
contents_builder_add(struct contents_builder *b,
                     const char *const *filenames, int nfiles,
                     struct dpkg_error *err)
{
	void *ctx[MAX_WORKERS];
	int i;

	for (i = 0; i < b->nparts; i++)
		ctx[i] = &b->parts[i];
	return contents_read_entries(filenames, nfiles, b->nparts,
	                             add_entries, ctx, &b->stats, err);
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

static inline uint64_t
slot_value(uint64_t h, uint32_t list)
{
	uint64_t field = list == CONTENTS_DIRECTORY ? list : list + 1;

	return (h & ((1ull << TAG_BITS) - 1)) << LIST_BITS | field;
}

/* Writeback of the slots is started this many bytes at a time. */
#define SYNC_STEP (1u << 20)
/* The slots are flushed to stable storage this many bytes at a time. */
#define FLUSH_STEP (16u << 20)
/* Room past a bucket's own slots for the probes that run beyond them. */
#define SPILL (1u << 16)

/*
 * While the slots are written, a thread flushes what is written already
 * (fdatasync) once FLUSH_STEP more bytes have been: a flush costs in
 * proportion to the data written since the last one (on a virtual
 * machine's disk, the host writes its cache), so the fsync at the end
 * waits for the last part only, not for the whole 80 MB.
 */
struct flusher {
	int fd;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	uint64_t written, flushed;
	bool done;
};

static void *
flush_written(void *arg)
{
	struct flusher *fl = arg;

	pthread_mutex_lock(&fl->lock);
	for (;;) {
		while (!fl->done && fl->written - fl->flushed < FLUSH_STEP)
			pthread_cond_wait(&fl->wake, &fl->lock);
		if (fl->done)
			break;
		fl->flushed = fl->written;
		pthread_mutex_unlock(&fl->lock);
		/* Only a head start for the final fsync, which reports
		 * any error. */
		if (fdatasync(fl->fd) < 0) {
			/* Nothing to do. */
		}
		pthread_mutex_lock(&fl->lock);
	}
	pthread_mutex_unlock(&fl->lock);
	return NULL;
}

static void
flusher_add(struct flusher *fl, uint64_t bytes)
{
	pthread_mutex_lock(&fl->lock);
	fl->written += bytes;
	if (fl->written - fl->flushed >= FLUSH_STEP)
		pthread_cond_signal(&fl->wake);
	pthread_mutex_unlock(&fl->lock);
}

/*
 * One filler: buckets [FIRST, LAST), whose home slots are [LO, LIMIT).  It
 * fills them one bucket at a time in a small window (a bucket's slots stay
 * in the cache) and writes each bucket's slots to the file once final: no
 * later bucket's entry lands below its own first home slot.
 */
struct fill {
	const struct contents_builder *b;
	int fd;
	struct flusher *flusher;
	uint64_t nslots;
	unsigned first, last;
	uint64_t limit;
	int error;
	/* Entries that would land past LIMIT: home slot and slot value. */
	uint64_t (*deferred)[2];
	size_t ndeferred, cap;
};

static void
defer(struct fill *f, uint64_t home, uint64_t value)
{
	if (f->ndeferred == f->cap) {
		f->cap = f->cap ? f->cap * 2 : 64;
		f->deferred = realloc(f->deferred,
		                      f->cap * sizeof(*f->deferred));
		if (f->deferred == NULL)
			abort();
	}
	f->deferred[f->ndeferred][0] = home;
	f->deferred[f->ndeferred++][1] = value;
}

static int
pwrite_all(int fd, const void *p, size_t n, off_t off)
{
	const char *c = p;

	while (n > 0) {
		ssize_t w = pwrite(fd, c, n, off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		c += w;
		n -= w;
		off += w;
	}
	return 0;
}

/* The first home slot of BUCKET's hashes. */
static uint64_t
bucket_start(unsigned bucket, uint64_t nslots)
{
	return home_slot((uint64_t)bucket << (64 - BUCKET_BITS), nslots);
}

/* Sort the N slot values at V (a home's few). */
static void
sort_slots(uint64_t *v, uint64_t n)
{
	uint64_t i, j;

	for (i = 1; i < n; i++) {
		uint64_t x = v[i];

		for (j = i; j > 0 && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

/*
 * Place BUCKET's entries in the window *WIN (*CAP slots) starting at slot
 * BASE: where linear probing would put them, but without probing.
 * Entries are counted by home slot, and a sweep over the homes gives each
 * home its run: it starts at the home, or after the previous run when
 * that reaches further.  Every slot between an entry's home and its place
 * is then taken, which is all a lookup needs; within a run, the values
 * are sorted, whatever order the workers found them in.  The first SPILL
 * slots are taken already (the previous bucket's overflow).  What lands
 * past this filler's part of the table is deferred.  Returns the end of
 * the last run.
 */
static uint64_t
place(struct fill *f, unsigned bucket, uint64_t base, uint64_t own,
      uint64_t spill, uint64_t **win, uint32_t *start, uint64_t *cap)
{
	const uint32_t *number = f->b->number;
	uint64_t stop = f->limit - base, next = spill, prev, s, pos;
	int w;

	/* A home may be the next bucket's first slot (home_slot() rounds
	 * down): OWN + 1 homes. */
	memset(start, 0, (own + 1) * sizeof(*start));
	for (w = 0; w < f->b->nparts; w++) {
		const struct block *blk;
		uint32_t i;

		for (blk = f->b->parts[w].buckets[bucket]; blk; blk = blk->next)
			for (i = 0; i < blk->n; i++)
				start[home_slot(unpack(&blk->v[i], bucket).hash,
				                f->nslots) -
				      base]++;
	}
	/* Without a branch on whether a home has entries: about half have
	 * none, at random. */
	for (s = 0; s <= own; s++) {
		uint32_t n = start[s];

		next = next > s ? next : s;
		start[s] = next;
		next += n;
	}
	if (next > *cap) {
		/* Hashes far from uniform: grow the window. */
		*win = realloc(*win, next * sizeof(**win));
		if (*win == NULL)
			abort();
		memset(*win + *cap, 0, (next - *cap) * sizeof(**win));
		*cap = next;
	}
	for (w = 0; w < f->b->nparts; w++) {
		const struct block *blk;
		uint32_t i;

		for (blk = f->b->parts[w].buckets[bucket]; blk; blk = blk->next)
			for (i = 0; i < blk->n; i++) {
				struct pair pr = unpack(&blk->v[i], bucket);
				uint64_t h = pr.hash;

				(*win)[start[home_slot(h, f->nslots) - base]++] =
				        slot_value(h, pr.list == CONTENTS_DIRECTORY ?
				                      pr.list : number[pr.list]);
			}
	}
	/* Each home's run now ends at start[home] and begins at the home,
	 * or where the run before it ends. */
	for (s = 0, prev = spill; s <= own; prev = start[s], s++) {
		uint64_t b = prev > s ? prev : s;

		if (start[s] - b > 1)
			sort_slots(*win + b, start[s] - b);
		for (pos = b > stop ? b : stop; pos < start[s]; pos++) {
			defer(f, base + s, (*win)[pos]);
			(*win)[pos] = 0;
		}
	}
	return next < stop ? next : stop;
}

static void *
fill_slots(void *arg)
{
	struct fill *f = arg;
	uint64_t base = bucket_start(f->first, f->nslots), cap, used = 0;
	uint64_t synced = (HEADER_SIZE + base * sizeof(uint64_t)) &
	                  ~(SYNC_STEP - 1), written;
	uint64_t *win;
	uint32_t *start;
	unsigned bucket;

	cap = (f->nslots >> BUCKET_BITS) * 2 + SPILL;
	win = calloc(cap, sizeof(*win));
	start = malloc(cap * sizeof(*start));
	if (win == NULL || start == NULL)
		abort();
	for (bucket = f->first; bucket < f->last && f->error == 0; bucket++) {
		uint64_t end = bucket + 1 < f->last ?
		               bucket_start(bucket + 1, f->nslots) : f->limit;
		uint64_t own = end - base, spill;

		if (own > cap - SPILL) {
			/* Hashes far from uniform: grow the window. */
			win = realloc(win, (own + SPILL) * sizeof(*win));
			start = realloc(start, (own + SPILL) * sizeof(*start));
			if (win == NULL || start == NULL)
				abort();
			memset(win + cap, 0, (own + SPILL - cap) * sizeof(*win));
			cap = own + SPILL;
		}
		used = place(f, bucket, base, own, used, &win, start, &cap);
		if (pwrite_all(f->fd, win, own * sizeof(*win),
		               HEADER_SIZE + base * sizeof(*win)) < 0)
			f->error = errno ? errno : EIO;
		/* Start writing what is final to disk a megabyte at a time:
		 * the fsync at the end then has less to wait for.  A hint,
		 * whose failure fsync tells. */
		written = (HEADER_SIZE + end * sizeof(*win)) & ~(SYNC_STEP - 1);
		if (written > synced) {
			sync_file_range(f->fd, synced, written - synced,
			                SYNC_FILE_RANGE_WRITE);
			flusher_add(f->flusher, written - synced);
			synced = written;
		}
		/* What ran past this bucket's slots starts the next one's. */
		spill = used > own ? used - own : 0;
		memmove(win, win + own, spill * sizeof(*win));
		memset(win + spill, 0, ((used > own ? used : own) - spill) *
		       sizeof(*win));
		used = spill;
		base = end;
	}
	free(win);
	free(start);
	return NULL;
}

/* Put one deferred entry in the file, wrapping at the table's end. */
static int
insert_in_file(int fd, uint64_t nslots, uint64_t home, uint64_t value)
{
	uint64_t pos = home, s, probes;

	for (probes = 0; probes < nslots; probes++) {
		if (pread(fd, &s, sizeof(s), HEADER_SIZE + pos * sizeof(s)) !=
		    sizeof(s))
			return -1;
		if (s == 0) {
			s = value;
			return pwrite_all(fd, &s, sizeof(s),
			                  HEADER_SIZE + pos * sizeof(s));
		}
		if (++pos == nslots)
			pos = 0;
	}
	return -1;
}

/* Pad FD's content to a multiple of 8 bytes. */
static int
align8(int fd, uint64_t *off)
{
	static const char zeros[8];
	size_t pad = (8 - *off % 8) % 8;

	*off += pad;
	return fd_write(fd, zeros, pad) == (ssize_t)pad ? 0 : -1;
}

static int
write_section(int fd, uint64_t *off, uint64_t *where, const void *p,
              size_t n)
{
	if (align8(fd, off) < 0)
		return -1;
	*where = *off;
	*off += n;
	return fd_write(fd, p, n) == (ssize_t)n ? 0 : -1;
}

/*
 * Offsets (N + 1) of the strings of S into its text, which holds them in
 * the order of their ids: strset_intern() appends each new one.
 */
static uint32_t *
offsets(const struct strset *s)
{
	uint32_t *o = malloc((s->n + 1) * sizeof(*o));
	size_t i;

	if (o == NULL)
		abort();
	for (i = 0; i < s->n; i++)
		o[i] = s->entries[i].offset;
	o[s->n] = s->text.len;
	return o;
}

static int
list_cmp(const void *a, const void *b, void *arg)
{
	const struct strset *s = arg;
	const struct strset_entry *x = &s->entries[*(const uint32_t *)a];
	const struct strset_entry *y = &s->entries[*(const uint32_t *)b];
	int c = memcmp(s->text.data + x->offset, s->text.data + y->offset,
	               x->len < y->len ? x->len : y->len);

	return c != 0 ? c : (x->len > y->len) - (x->len < y->len);
}

/* Number the lists by the order of their text: the workers met them in
 * an order of their own. */
static void
number_lists(struct contents_builder *b)
{
	const struct strset *lists = &b->lists;
	uint32_t i;

	b->sorted = malloc((lists->n + 1) * sizeof(*b->sorted));
	b->number = malloc((lists->n + 1) * sizeof(*b->number));
	if (b->sorted == NULL || b->number == NULL)
		abort();
	for (i = 0; i < lists->n; i++)
		b->sorted[i] = i;
	qsort_r(b->sorted, lists->n, sizeof(*b->sorted), list_cmp,
	        (void *)lists);
	for (i = 0; i < lists->n; i++)
		b->number[b->sorted[i]] = i;
}

/* The lists and names after the slots, then the header. */
static int
write_tail(struct contents_builder *b, uint64_t off, uint64_t nslots)
{
	struct contents_index_header h;
	const struct strset *pk = &b->packages, *lists = &b->lists;
	uint32_t *pkoff, *listoff;
	uint64_t *pkslots, npkslots;
	struct buf text = { NULL, 0, 0 };
	size_t i;
	int ret = 0;

	/* The lists in their numbers' order, and every name of every
	 * list ("a,b") in that order too. */
	listoff = malloc((lists->n + 1) * sizeof(*listoff));
	if (listoff == NULL)
		abort();
	for (i = 0; i < lists->n; i++) {
		const struct strset_entry *e = &lists->entries[b->sorted[i]];
		const char *name = lists->text.data + e->offset;
		const char *end = name + e->len;
		bool added;

		listoff[i] = text.len;
		buf_add(&text, name, e->len);
		while (name < end) {
			const char *comma = memchr(name, ',', end - name);
			size_t namelen = (comma ? comma : end) - name;

			if (namelen > 0)
				strset_intern(&b->packages, name, namelen,
				              &added);
			name += namelen + 1;
		}
	}
	listoff[lists->n] = text.len;
	pkoff = offsets(pk);
	pkslots = strset_hash_table(pk, &npkslots);

	memset(&h, 0, sizeof(h));
	memcpy(h.magic, MAGIC, 8);
	h.version = VERSION;
	h.byte_order = BYTE_ORDER_MARK;
	h.nentries = b->nentries;
	h.ndirs = b->ndirs;
	h.nlists = lists->n;
	h.npackages = pk->n;
	h.npackage_slots = npkslots;
	h.nslots = nslots;
	h.lines = b->stats.lines;
	h.bad_lines = b->stats.bad_lines;
	snprintf(h.label, sizeof(h.label), "%s", b->label);
	h.slots_off = HEADER_SIZE;
	if (lseek(b->fd, off, SEEK_SET) < 0 ||
	    write_section(b->fd, &off, &h.lists_off, listoff,
	                  (lists->n + 1) * sizeof(uint32_t)) < 0 ||
	    write_section(b->fd, &off, &h.list_text_off,
	                  text.data ? text.data : "", text.len) < 0 ||
	    write_section(b->fd, &off, &h.packages_off, pkoff,
	                  (pk->n + 1) * sizeof(uint32_t)) < 0 ||
	    write_section(b->fd, &off, &h.package_text_off, pk->text.data,
	                  pk->text.len) < 0 ||
	    write_section(b->fd, &off, &h.package_slots_off, pkslots,
	                  npkslots * sizeof(*pkslots)) < 0)
		ret = -1;
	h.list_text_len = text.len;
	h.package_text_len = pk->text.len;
	h.file_size = off;
	b->stats.index_bytes = off;
	if (ret == 0 && (pwrite(b->fd, &h, sizeof(h), 0) != sizeof(h)))
		ret = -1;
	free(pkoff);
	free(pkslots);
	free(listoff);
	free(text.data);
	return ret;
}

/*
 * Write the NSLOTS slots to FD, and meanwhile what follows them from END
 * (write_tail()); -1 with errno set on failure.
 */
static int
build_slots(struct contents_builder *b, int fd, uint64_t nslots,
            uint64_t end)
{
	struct fill f[MAX_WORKERS];
	struct flusher fl = { .fd = fd };
	pthread_t threads[MAX_WORKERS], flusher;
	/* As many parts of the table whatever the processors: where one
	 * part ends decides where some entries land. */
	int n = MAX_WORKERS, t, ret, tail_errno = 0;
	size_t i;

	pthread_mutex_init(&fl.lock, NULL);
	pthread_cond_init(&fl.wake, NULL);
	if (pthread_create(&flusher, NULL, flush_written, &fl) != 0)
		abort();
	for (t = 0; t < n; t++) {
		memset(&f[t], 0, sizeof(f[t]));
		f[t].b = b;
		f[t].fd = fd;
		f[t].flusher = &fl;
		f[t].nslots = nslots;
		f[t].first = NBUCKETS * t / n;
		f[t].last = NBUCKETS * (t + 1) / n;
		f[t].limit = t + 1 < n ? bucket_start(f[t].last, nslots) :
		             nslots;
		if (pthread_create(&threads[t], NULL, fill_slots, &f[t]) != 0)
			abort();
	}
	/* The lists and names are written while the threads
	 * fill the slots. */
	ret = write_tail(b, end, nslots);
	if (ret < 0)
		tail_errno = errno ? errno : EIO;
	for (t = 0; t < n; t++)
		pthread_join(threads[t], NULL);
	pthread_mutex_lock(&fl.lock);
	fl.done = true;
	pthread_cond_signal(&fl.wake);
	pthread_mutex_unlock(&fl.lock);
	pthread_join(flusher, NULL);
	pthread_cond_destroy(&fl.wake);
	pthread_mutex_destroy(&fl.lock);
	for (t = 0; t < n; t++) {
		if (f[t].error != 0 && ret == 0) {
			errno = f[t].error;
			ret = -1;
		}
		for (i = 0; i < f[t].ndeferred && ret == 0; i++)
			ret = insert_in_file(fd, nslots, f[t].deferred[i][0],
			                     f[t].deferred[i][1]);
		free(f[t].deferred);
	}
	if (tail_errno != 0)
		errno = tail_errno;
	return ret;
}

int
contents_builder_write(struct contents_builder *b, struct dpkg_error *err)
{
	uint64_t n, nslots, end;
	int ret = 0, w;

	for (w = 0; w < b->nparts; w++) {
		close_blocks(&b->parts[w]);
		b->nentries += b->parts[w].nentries;
		b->ndirs += b->parts[w].ndirs;
	}
	if (b->lists.n > LIST_MAX)
		return dpkg_put_error(err, "%s: more than %u package lists",
		                      b->path, LIST_MAX);
	n = b->nentries + b->ndirs;
	b->stats.directories = b->ndirs;
	number_lists(b);
	/* Load factor 0.8: misses stop at an empty slot within a line. */
	nslots = n + n / 4 + 1;
	end = HEADER_SIZE + nslots * sizeof(uint64_t);
	if (ftruncate(b->fd, end) < 0 ||
	    build_slots(b, b->fd, nslots, end) < 0 ||
	    fchmod(b->fd, 0644) < 0 ||
	    fsync(b->fd) < 0)
		ret = dpkg_put_errno(err, "%s: cannot write", b->tmp);
	if (close(b->fd) < 0 && ret == 0)
		ret = dpkg_put_errno(err, "%s: cannot write", b->tmp);
	b->fd = -1;
	/* The old index, if any, keeps its inode under PATH.old: the rename
	 * frees nothing, and readers that mapped it keep it.  Only a saving:
	 * where the link cannot be made, the rename frees the old index. */
	removed_old(b);
	if (ret == 0 && link(b->path, b->old) < 0) {
		/* ENOENT (first index), EEXIST, EPERM: the rename frees it. */
	}
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
	int w;
	size_t i;

	if (b == NULL)
		return;
	removed_old(b);
	free(b->old);
	if (b->fd >= 0)
		close(b->fd);
	/* Not committed: no temporary file left behind. */
	if (b->tmp != NULL)
		unlink(b->tmp);
	free(b->tmp);
	free(b->path);
	for (w = 0; w < b->nparts; w++) {
		struct part *p = &b->parts[w];

		for (i = 0; i < p->nslabs; i++)
			free(p->slabs[i]);
		free(p->slabs);
		free(p->map);
		free(p->names.data);
		strset_free(&p->lists);
	}
	free(b->parts);
	free(b->number);
	free(b->sorted);
	strset_free(&b->lists);
	strset_free(&b->packages);
	pthread_mutex_destroy(&b->lock);
	free(b);
}

struct contents_index {
	int fd;
	void *map;
	size_t size;
	const struct contents_index_header *h;
	const uint64_t *slots;
	const uint32_t *lists;
	const char *list_text;
	const uint32_t *packages;
	const char *package_text;
	const uint64_t *package_slots;
};

static bool
section_ok(uint64_t off, uint64_t len, uint64_t size)
{
	return off <= size && len <= size - off && off % 8 == 0;
}

/*
 * Whether an offset table starts at 0 and ends inside its text.  The
 * entries between are checked when used (span_ok()): checking them all
 * here would read the whole table on every open.
 */
static bool
offsets_ok(const uint32_t *o, uint64_t n, uint64_t textlen)
{
	return o[0] == 0 && o[n] <= textlen;
}

/* Whether entry I of offset table O (N entries) spans its text. */
static inline bool
span_ok(const uint32_t *o, uint64_t i, uint64_t n, uint64_t textlen)
{
	return i < n && o[i] <= o[i + 1] && o[i + 1] <= textlen;
}

static bool
index_ok(const struct contents_index *idx)
{
	const struct contents_index_header *h = idx->h;
	uint64_t size = idx->size;

	if (memcmp(h->magic, MAGIC, 8) != 0 || h->version != VERSION ||
	    h->byte_order != BYTE_ORDER_MARK || h->file_size != size ||
	    h->nlists > LIST_MAX || h->npackages >= UINT32_MAX ||
	    (h->npackage_slots & (h->npackage_slots - 1)) != 0 ||
	    (h->npackages > 0 && h->npackage_slots <= h->npackages) ||
	    h->nslots > size / 8 || h->nslots <= h->nentries + h->ndirs ||
	    h->slots_off != HEADER_SIZE ||
	    h->label[CONTENTS_LABEL_MAX] != '\0')
		return false;
	if (!section_ok(h->slots_off, h->nslots * 8, size) ||
	    !section_ok(h->lists_off, (h->nlists + 1) * 4, size) ||
	    !section_ok(h->list_text_off, h->list_text_len, size) ||
	    !section_ok(h->packages_off, (h->npackages + 1) * 4, size) ||
	    !section_ok(h->package_text_off, h->package_text_len, size) ||
	    !section_ok(h->package_slots_off, h->npackage_slots * 8, size))
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
	if ((size_t)st.st_size < HEADER_SIZE) {
		close(fd);
		return dpkg_put_error(err, "%s: not a Contents index", path);
	}
	idx = calloc(1, sizeof(*idx));
	if (idx == NULL)
		abort();
	idx->size = st.st_size;
	idx->fd = fd;
	idx->map = mmap(NULL, idx->size, PROT_READ, MAP_SHARED, fd, 0);
	if (idx->map == MAP_FAILED) {
		close(fd);
		free(idx);
		return dpkg_put_errno(err, "%s: cannot map", path);
	}
	idx->h = idx->map;
	if (memcmp(idx->h->magic, MAGIC, MAGIC_FAMILY) == 0 &&
	    memcmp(idx->h->magic, MAGIC, 8) != 0) {
		munmap(idx->map, idx->size);
		close(fd);
		free(idx);
		return dpkg_put_error(err, "%s: an index in an older or newer "
		                      "format: index the archive again", path);
	}
	if (!index_ok(idx)) {
		munmap(idx->map, idx->size);
		close(fd);
		free(idx);
		return dpkg_put_error(err, "%s: not a Contents index, or a "
		                      "damaged one", path);
	}
#define AT(off) ((const char *)idx->map + (off))
	idx->slots = (const uint64_t *)AT(idx->h->slots_off);
	idx->lists = (const uint32_t *)AT(idx->h->lists_off);
	idx->list_text = AT(idx->h->list_text_off);
	idx->packages = (const uint32_t *)AT(idx->h->packages_off);
	idx->package_text = AT(idx->h->package_text_off);
	idx->package_slots = (const uint64_t *)AT(idx->h->package_slots_off);
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

uint64_t
contents_index_size(const struct contents_index *idx)
{
	return idx->size;
}

/*
 * Call EACH with the list number (or CONTENTS_DIRECTORY) of PATH's slots.
 * The slots are read with pread(2), a window at a time, not through the
 * mapping: a check probes a thousand places in a table of tens of
 * megabytes, and a page fault each costs more than a read each.  At the
 * table's load of 0.8, a window of 32 slots left 14% of lookups needing a
 * second read; one of 64 (512 bytes), 3%.
 */
#define WINDOW 64

static int
probe(const struct contents_index *idx, const char *path, size_t len,
      void (*each)(const struct contents_index *, uint32_t, void *),
      void *arg)
{
	uint64_t h = contents_hash(path, len), nslots = idx->h->nslots;
	uint64_t pos = home_slot(h, nslots), probes = 0;
	uint64_t tag = h & ((1ull << TAG_BITS) - 1), win[WINDOW];
	int n = 0;

	while (probes < nslots) {
		uint64_t want = nslots - pos < WINDOW ? nslots - pos : WINDOW;
		ssize_t got = pread(idx->fd, win, want * sizeof(*win),
		                    idx->h->slots_off + pos * sizeof(*win));
		uint64_t k;

		if (got <= 0)
			return n;
		want = got / sizeof(*win);
		for (k = 0; k < want && probes < nslots; k++, probes++) {
			uint64_t s = win[k];
			uint32_t list = s & CONTENTS_DIRECTORY;

			if (s == 0)
				return n;
			if (s >> LIST_BITS != tag)
				continue;
			if (list != CONTENTS_DIRECTORY)
				list--;
			if (list == CONTENTS_DIRECTORY ||
			    list < idx->h->nlists) {
				each(idx, list, arg);
				n++;
			}
		}
		pos += want;
		if (pos == nslots)
			pos = 0;
	}
	return n;
}

struct find {
	contents_found_fn *found;
	void *ctx;
	int n;
	bool dir;
};

static void
each_found(const struct contents_index *idx, uint32_t list, void *arg)
{
	struct find *f = arg;

	if (list == CONTENTS_DIRECTORY) {
		f->dir = true;
		return;
	}
	if (!span_ok(idx->lists, list, idx->h->nlists, idx->h->list_text_len))
		return;
	if (f->found)
		f->found(f->ctx, idx->list_text + idx->lists[list],
		         idx->lists[list + 1] - idx->lists[list]);
	f->n++;
}

int
contents_index_find(const struct contents_index *idx, const char *path,
                    contents_found_fn *found, contents_dir_fn *directory,
                    void *ctx)
{
	struct find f = { found, ctx, 0, false };

	probe(idx, path, strlen(path), each_found, &f);
	if (f.dir && directory != NULL)
		directory(ctx);
	return f.n;
}

bool
contents_index_is_directory(const struct contents_index *idx,
                            const char *path, size_t len)
{
	struct find f = { NULL, NULL, 0, false };

	probe(idx, path, len, each_found, &f);
	return f.dir;
}

bool
contents_index_has_package(const struct contents_index *idx,
                           const char *name)
{
	size_t len = strlen(name);
	uint32_t h = (uint32_t)contents_string_hash(name, len);
	uint64_t n = idx->h->npackage_slots, pos, probes;

	/* As strset_intern() probes. */
	for (pos = h & (n - 1), probes = 0; probes < n;
	     pos = (pos + 1) & (n - 1), probes++) {
		uint64_t s = idx->package_slots[pos];
		uint32_t id = (uint32_t)s - 1;

		if (s == 0)
			return false;
		if (s >> 32 == h &&
		    span_ok(idx->packages, id, idx->h->npackages,
		            idx->h->package_text_len) &&
		    idx->packages[id + 1] - idx->packages[id] == len &&
		    memcmp(idx->package_text + idx->packages[id], name,
		           len) == 0)
			return true;
	}
	return false;
}

void
contents_index_close(struct contents_index *idx)
{
	if (idx == NULL)
		return;
	munmap(idx->map, idx->size);
	close(idx->fd);
	free(idx);
}
