/*
 * File-system faults for the storage hardening tests (storageChild.ts), loaded with LD_PRELOAD.
 *
 * SQLite inside node:sqlite writes with the C library, out of JavaScript's reach, so the writes and
 * syncs are counted and faulted here: write, writev, pwrite64 (pwrite), fsync and fdatasync on files
 * under MP_FAULT_DIR. Once armed, the n-th counted call kills the process (SIGKILL), fails with
 * ENOSPC (as a full disk does, and every counted write after it too), or writes half its bytes and
 * then fails like a disk that just filled up. A fault never strikes the same call twice.
 *
 * The process talks to the shim by writing a command to the file MP_FAULT_CONTROL (the write is
 * taken by the shim, which puts its answer in the file instead): "arm <n> <kill|enospc|short>",
 * "disarm", or "report", answered with "total <t> syncs <s> counted <c>" (calls since the start,
 * syncs among them, calls since arming).
 *
 * Built by storageSupport.ts: cc -shared -fPIC -O2 -o faultShim.so faultShim.c -ldl
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

enum fault { NONE, KILL, ENOSPC_ALWAYS, SHORT_THEN_ENOSPC };

static ssize_t (*real_write)(int, const void *, size_t);
static ssize_t (*real_writev)(int, const struct iovec *, int);
static ssize_t (*real_pwrite64)(int, const void *, size_t, off_t);
static int (*real_fsync)(int);
static int (*real_fdatasync)(int);

static const char *watched_dir;
static size_t watched_dir_length;
static const char *control_path;

static long total, syncs, counted;
static long fault_after;
static enum fault fault = NONE;
/* Set once the fault has struck: a full disk stays full. */
static int disk_full;

static void load(void) {
	if (real_write != NULL) return;
	real_write = dlsym(RTLD_NEXT, "write");
	real_writev = dlsym(RTLD_NEXT, "writev");
	real_pwrite64 = dlsym(RTLD_NEXT, "pwrite64");
	real_fsync = dlsym(RTLD_NEXT, "fsync");
	real_fdatasync = dlsym(RTLD_NEXT, "fdatasync");
	watched_dir = getenv("MP_FAULT_DIR");
	watched_dir_length = watched_dir == NULL ? 0 : strlen(watched_dir);
	control_path = getenv("MP_FAULT_CONTROL");
}

/* 0: not watched, 1: a file under the watched folder, 2: the control file. */
static int kind_of(int fd) {
	char link[64];
	char path[4096];
	load();
	if (watched_dir == NULL || fd <= 2) return 0;
	snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
	ssize_t length = readlink(link, path, sizeof path - 1);
	if (length <= 0) return 0;
	path[length] = '\0';
	if (control_path != NULL && strcmp(path, control_path) == 0) return 2;
	if (strncmp(path, watched_dir, watched_dir_length) == 0 &&
	    (path[watched_dir_length] == '/' || path[watched_dir_length] == '\0'))
		return 1;
	return 0;
}

static void command(int fd, const char *text, size_t length) {
	char line[128];
	char name[32];
	long n;
	size_t copied = length < sizeof line - 1 ? length : sizeof line - 1;
	memcpy(line, text, copied);
	line[copied] = '\0';
	if (sscanf(line, "arm %ld %31s", &n, name) == 2) {
		fault_after = n;
		counted = 0;
		disk_full = 0;
		fault = strcmp(name, "kill") == 0 ? KILL : strcmp(name, "enospc") == 0 ? ENOSPC_ALWAYS : SHORT_THEN_ENOSPC;
	} else if (strncmp(line, "disarm", 6) == 0) {
		fault = NONE;
	}
	char answer[128];
	int size = snprintf(answer, sizeof answer, "total %ld syncs %ld counted %ld\n", total, syncs, counted);
	real_pwrite64(fd, answer, (size_t)size, 0);
}

/*
 * Counts a call on a watched file and decides its fate: 0 to go ahead, -1 to fail with ENOSPC,
 * 1 to write only half. A kill does not return.
 */
static int meet(int is_write) {
	total++;
	if (!is_write) syncs++;
	if (fault == NONE) return 0;
	counted++;
	if (disk_full) return is_write ? -1 : 0;
	if (counted < fault_after) return 0;
	if (fault == KILL) kill(getpid(), SIGKILL);
	if (!is_write) return 0;
	disk_full = 1;
	return fault == SHORT_THEN_ENOSPC ? 1 : -1;
}

static ssize_t no_space(void) {
	errno = ENOSPC;
	return -1;
}

ssize_t write(int fd, const void *buffer, size_t length) {
	load();
	switch (kind_of(fd)) {
	case 2:
		command(fd, buffer, length);
		return (ssize_t)length;
	case 1:
		switch (meet(1)) {
		case -1:
			return no_space();
		case 1:
			return real_write(fd, buffer, length > 1 ? length / 2 : length);
		}
	}
	return real_write(fd, buffer, length);
}

ssize_t writev(int fd, const struct iovec *vectors, int count) {
	load();
	if (kind_of(fd) == 1 && meet(1) != 0) return no_space();
	return real_writev(fd, vectors, count);
}

ssize_t pwrite64(int fd, const void *buffer, size_t length, off_t offset) {
	load();
	if (kind_of(fd) == 1) {
		switch (meet(1)) {
		case -1:
			return no_space();
		case 1:
			return real_pwrite64(fd, buffer, length > 1 ? length / 2 : length, offset);
		}
	}
	return real_pwrite64(fd, buffer, length, offset);
}

ssize_t pwrite(int fd, const void *buffer, size_t length, off_t offset) {
	return pwrite64(fd, buffer, length, offset);
}

int fsync(int fd) {
	load();
	if (kind_of(fd) == 1) meet(0);
	return real_fsync(fd);
}

int fdatasync(int fd) {
	load();
	if (kind_of(fd) == 1) meet(0);
	return real_fdatasync(fd);
}
