/*
 * pvt_mpi_map.c — a map from MPI handles to pointers (pvt_mpi.h), for the
 * communicator and request tables of the MPI wrappers.
 *
 * Open addressing with linear probing over a power-of-two table that
 * doubles when it is half full; deletion shifts the following entries
 * back (no tombstones), so a table that sees many short-lived requests
 * stays short.  A handle is an int in some MPI libraries and a pointer in
 * others: its bytes are the key.
 */
#include <stdlib.h>
#include <string.h>

#include "pvt_mpi.h"

/* See pvt_mpi.h. */
uint64_t pvt__mpi_key(const void *handle, size_t size)
{
	uint64_t k = 0;

	memcpy(&k, handle, size < sizeof k ? size : sizeof k);
	return k;
}

/* The home slot of key in a table of cap slots. */
static uint32_t map_home(uint64_t key, uint32_t cap)
{
	key ^= key >> 29;
	key *= 0xbf58476d1ce4e5b9ull;
	key ^= key >> 32;
	return (uint32_t)key & (cap - 1);
}

/* The slot of key, or cap when it is not there. */
static uint32_t map_find(const pvt__mpi_map *m, uint64_t key)
{
	uint32_t i;

	if (m->cap == 0)
		return 0;
	for (i = map_home(key, m->cap); m->val[i] != NULL;
	     i = (i + 1) & (m->cap - 1))
		if (m->key[i] == key)
			return i;
	return m->cap;
}

/* Doubles the table.  0 or -1. */
static int map_grow(pvt__mpi_map *m)
{
	uint32_t cap = m->cap ? m->cap * 2 : 64, i, j;
	uint64_t *key = calloc(cap, sizeof *key);
	void **val = calloc(cap, sizeof *val);

	if (key == NULL || val == NULL || cap == 0) {
		free(key);
		free(val);
		return -1;
	}
	for (i = 0; i < m->cap; i++) {
		if (m->val[i] == NULL)
			continue;
		for (j = map_home(m->key[i], cap); val[j] != NULL;
		     j = (j + 1) & (cap - 1))
			;
		key[j] = m->key[i];
		val[j] = m->val[i];
	}
	free(m->key);
	free(m->val);
	m->key = key;
	m->val = val;
	m->cap = cap;
	return 0;
}

/* See pvt_mpi.h. */
void *pvt__mpi_map_get(const pvt__mpi_map *m, uint64_t key)
{
	uint32_t i = map_find(m, key);

	return i < m->cap ? m->val[i] : NULL;
}

/* See pvt_mpi.h. */
int pvt__mpi_map_put(pvt__mpi_map *m, uint64_t key, void *val)
{
	uint32_t i = map_find(m, key);

	if (m->cap != 0 && i < m->cap) {
		m->val[i] = val;
		return 0;
	}
	if ((m->n + 1) * 2 > m->cap && map_grow(m) != 0)
		return -1;
	for (i = map_home(key, m->cap); m->val[i] != NULL;
	     i = (i + 1) & (m->cap - 1))
		;
	m->key[i] = key;
	m->val[i] = val;
	m->n++;
	return 0;
}

/* See pvt_mpi.h. */
void *pvt__mpi_map_del(pvt__mpi_map *m, uint64_t key)
{
	uint32_t i = map_find(m, key), j, h;
	void *v;

	if (m->cap == 0 || i >= m->cap)
		return NULL;
	v = m->val[i];
	m->val[i] = NULL;
	m->n--;
	/* Shift back the entries of the run after i that belong before. */
	for (j = (i + 1) & (m->cap - 1); m->val[j] != NULL;
	     j = (j + 1) & (m->cap - 1)) {
		h = map_home(m->key[j], m->cap);
		if (((j - h) & (m->cap - 1)) >= ((j - i) & (m->cap - 1))) {
			m->key[i] = m->key[j];
			m->val[i] = m->val[j];
			m->val[j] = NULL;
			i = j;
		}
	}
	return v;
}
