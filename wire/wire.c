/*
 * wire.c — error descriptions of the wire library.
 */
#include "wire.h"

static const struct {
	int code;
	const char *name;
	const char *text;
} wire_errors[] = {
	{WIRE_OK, "OK", "success"},
	{WIRE_ENOMEM, "ENOMEM", "out of memory or over a buffer limit"},
	{WIRE_ETOOBIG, "ETOOBIG", "frame larger than the size limit"},
	{WIRE_EMALFORMED, "EMALFORMED", "malformed frame or message"},
	{WIRE_EVERSION, "EVERSION", "protocol version mismatch"},
	{WIRE_EAUTH, "EAUTH", "authentication failed"},
	{WIRE_EUNKNOWN, "EUNKNOWN", "unknown message type"},
	{WIRE_EIO, "EIO", "transport read or write error"},
	{WIRE_EEOF, "EEOF", "connection closed by peer"},
	{WIRE_EBUSY, "EBUSY", "session is controlled by another console"},
	{WIRE_ETIMEOUT, "ETIMEOUT", "timed out"},
	{WIRE_EPROTO, "EPROTO", "message not expected now"},
	{WIRE_EARG, "EARG", "invalid argument"},
	{WIRE_ESTATE, "ESTATE", "not allowed in this state"},
};

static int wire_err_index(int err)
{
	size_t i;

	if (err > 0)
		err = -err;
	for (i = 0; i < sizeof wire_errors / sizeof wire_errors[0]; i++)
		if (wire_errors[i].code == err)
			return (int)i;
	return -1;
}

const char *wire_strerror(int err)
{
	int i = wire_err_index(err);

	return i < 0 ? "unknown error" : wire_errors[i].text;
}

const char *wire_errname(int err)
{
	int i = wire_err_index(err);

	return i < 0 ? "E?" : wire_errors[i].name;
}
