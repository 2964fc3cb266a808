/*
 * spool.c: append to a file from one thread, written by another.
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <unistd.h>

#include "conflicts/spool.h"

#define NBUFFERS 4

struct buffer {
	unsigned char *data;
	size_t len;
	off_t off;
};

struct spool {
	int fd;
	off_t next;			/* file offset of the current buffer */
	struct buffer bufs[NBUFFERS];
	struct buffer *cur;
	uint64_t written;		/* bytes in buffers handed over */

	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t changed;
	/* Full buffers wait in [head, tail) (modulo NBUFFERS). */
	unsigned head, tail;
	bool done;
	int error;
};

static void *
writer(void *arg)
{
	struct spool *s = arg;

	pthread_mutex_lock(&s->lock);
	for (;;) {
		struct buffer *b;
		size_t n = 0;

		while (s->head == s->tail && !s->done)
			pthread_cond_wait(&s->changed, &s->lock);
		if (s->head == s->tail)
			break;
		b = &s->bufs[s->head % NBUFFERS];
		pthread_mutex_unlock(&s->lock);
		while (n < b->len && s->error == 0) {
			ssize_t w = pwrite(s->fd, b->data + n, b->len - n,
			                   b->off + n);

			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0)
				s->error = w < 0 ? errno : EIO;
			else
				n += w;
		}
		pthread_mutex_lock(&s->lock);
		s->head++;
		pthread_cond_broadcast(&s->changed);
	}
	pthread_mutex_unlock(&s->lock);
	return NULL;
}

struct spool *
spool_new(int fd, off_t start)
{
	struct spool *s = calloc(1, sizeof(*s));
	int i;

	if (s == NULL)
		abort();
	s->fd = fd;
	s->next = start;
	for (i = 0; i < NBUFFERS; i++) {
		s->bufs[i].data = malloc(SPOOL_CHUNK);
		if (s->bufs[i].data == NULL)
			abort();
	}
	s->cur = &s->bufs[0];
	s->cur->off = start;
	pthread_mutex_init(&s->lock, NULL);
	pthread_cond_init(&s->changed, NULL);
	if (pthread_create(&s->thread, NULL, writer, s) != 0)
		abort();
	return s;
}

/* Hand the current buffer to the writer; wait for a free one. */
static void
hand_over(struct spool *s)
{
	pthread_mutex_lock(&s->lock);
	s->written += s->cur->len;
	s->next += s->cur->len;
	s->tail++;
	pthread_cond_broadcast(&s->changed);
	while (s->tail - s->head == NBUFFERS)
		pthread_cond_wait(&s->changed, &s->lock);
	s->cur = &s->bufs[s->tail % NBUFFERS];
	pthread_mutex_unlock(&s->lock);
	s->cur->len = 0;
	s->cur->off = s->next;
}

unsigned char *
spool_reserve(struct spool *s, size_t n)
{
	if (s->cur->len + n > SPOOL_CHUNK)
		hand_over(s);
	return s->cur->data + s->cur->len;
}

void
spool_commit(struct spool *s, unsigned char *end)
{
	s->cur->len = end - s->cur->data;
}

uint64_t
spool_length(const struct spool *s)
{
	return s->written + s->cur->len;
}

int
spool_finish(struct spool *s)
{
	int i, error;

	if (s->cur->len > 0)
		hand_over(s);
	pthread_mutex_lock(&s->lock);
	s->done = true;
	pthread_cond_broadcast(&s->changed);
	pthread_mutex_unlock(&s->lock);
	pthread_join(s->thread, NULL);
	error = s->error;
	for (i = 0; i < NBUFFERS; i++)
		free(s->bufs[i].data);
	pthread_cond_destroy(&s->changed);
	pthread_mutex_destroy(&s->lock);
	free(s);
	return error;
}
