/*
 * wire_ev.c — the canonical 72-byte big-endian event record (wire_ev.h).
 */
#include "wire_ev.h"

static void wire_ev_put16(unsigned char *p, uint16_t v)
{
	p[0] = (unsigned char)(v >> 8);
	p[1] = (unsigned char)v;
}

static void wire_ev_put32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)(v >> 24);
	p[1] = (unsigned char)(v >> 16);
	p[2] = (unsigned char)(v >> 8);
	p[3] = (unsigned char)v;
}

static void wire_ev_put64(unsigned char *p, uint64_t v)
{
	wire_ev_put32(p, (uint32_t)(v >> 32));
	wire_ev_put32(p + 4, (uint32_t)v);
}

static uint16_t wire_ev_get16(const unsigned char *p)
{
	return (uint16_t)((p[0] << 8) | p[1]);
}

static uint32_t wire_ev_get32(const unsigned char *p)
{
	return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) |
	       ((uint32_t)p[2] << 8) | p[3];
}

static uint64_t wire_ev_get64(const unsigned char *p)
{
	return ((uint64_t)wire_ev_get32(p) << 32) | wire_ev_get32(p + 4);
}

void wire_ev_put(unsigned char *p, const wire_ev *e)
{
	wire_ev_put64(p, e->seq);
	wire_ev_put64(p + 8, e->t_ns);
	wire_ev_put64(p + 16, e->delta_ns);
	wire_ev_put64(p + 24, (uint64_t)e->bytes);
	wire_ev_put16(p + 32, e->kind);
	wire_ev_put16(p + 34, e->op);
	wire_ev_put32(p + 36, e->file);
	wire_ev_put32(p + 40, e->func);
	wire_ev_put32(p + 44, (uint32_t)e->line);
	wire_ev_put32(p + 48, (uint32_t)e->peer);
	wire_ev_put32(p + 52, (uint32_t)e->tag);
	wire_ev_put32(p + 56, (uint32_t)e->result);
	wire_ev_put32(p + 60, (uint32_t)e->aux);
	wire_ev_put32(p + 64, e->comm);
	wire_ev_put32(p + 68, e->ref);
}

void wire_ev_get(const unsigned char *p, wire_ev *e)
{
	e->seq = wire_ev_get64(p);
	e->t_ns = wire_ev_get64(p + 8);
	e->delta_ns = wire_ev_get64(p + 16);
	e->bytes = (int64_t)wire_ev_get64(p + 24);
	e->kind = wire_ev_get16(p + 32);
	e->op = wire_ev_get16(p + 34);
	e->file = wire_ev_get32(p + 36);
	e->func = wire_ev_get32(p + 40);
	e->line = (int32_t)wire_ev_get32(p + 44);
	e->peer = (int32_t)wire_ev_get32(p + 48);
	e->tag = (int32_t)wire_ev_get32(p + 52);
	e->result = (int32_t)wire_ev_get32(p + 56);
	e->aux = (int32_t)wire_ev_get32(p + 60);
	e->comm = wire_ev_get32(p + 64);
	e->ref = wire_ev_get32(p + 68);
}
