// SPDX-License-Identifier: GPL-2.0
/* Job files, the command line and --set into a job list; see job_parse.h. */
#include "matrix/job_parse.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "lib/ini.h"
#include "lib/units.h"

#define CMDLINE "command line"

void job_set_init(struct job_set *js)
{
	memset(js, 0, sizeof(*js));
	job_options_init(&js->global);
	js->output_format = OUTPUT_NORMAL;
}

static void kvs_free(struct job_kvs *k)
{
	for (size_t i = 0; i < k->n; i++) {
		free(k->v[i].key);
		free(k->v[i].value);
		free(k->v[i].file);
	}
	free(k->v);
	k->v = NULL;
	k->n = 0;
}

void job_set_free(struct job_set *js)
{
	for (size_t i = 0; i < js->njobs; i++) {
		job_options_free(&js->jobs[i].o);
		kvs_free(&js->jobs[i].kv);
		free(js->jobs[i].file);
	}
	free(js->jobs);
	kvs_free(&js->global_kv);
	kvs_free(&js->sets);
	job_options_free(&js->global);
	free(js->output);
	free(js->cmdhelp);
	memset(js, 0, sizeof(*js));
}

static int oom(char *err, size_t errlen)
{
	snprintf(err, errlen, "out of memory");
	return -1;
}

/* Records key=value as written; a later value of the same key replaces it. */
static int kvs_put(struct job_kvs *k, const char *key, const char *value, const char *file,
		   int line)
{
	struct job_kv *e = NULL;

	for (size_t i = 0; i < k->n; i++)
		if (!strcmp(k->v[i].key, key))
			e = &k->v[i];
	if (!e) {
		struct job_kv *grown = realloc(k->v, (k->n + 1) * sizeof(*grown));

		if (!grown)
			return -1;
		k->v = grown;
		e = &k->v[k->n++];
		memset(e, 0, sizeof(*e));
		if (!(e->key = strdup(key)))
			return -1;
	}
	free(e->value);
	free(e->file);
	e->value = value ? strdup(value) : NULL;
	e->file = strdup(file);
	e->line = line;
	if ((value && !e->value) || !e->file)
		return -1;
	return 0;
}

/*
 * Sets one option on o, after fio's keyword replacement ($ncpus ...).
 * The option is recorded as given in kv under its canonical name.
 */
static int apply_option(struct job_options *o, struct job_kvs *kv, const char *key,
			const char *value, const char *file, int line, char *err, size_t errlen)
{
	const struct option_def *d = option_find(key);
	char *expanded = NULL;
	int rc;

	if (!d) {
		snprintf(err, errlen, "unknown option '%s' (see --cmdhelp)", key);
		return -1;
	}
	if (value && !(expanded = units_expand_keywords(value)))
		return oom(err, errlen);
	rc = option_set(o, d, expanded, err, errlen);
	free(expanded);
	if (rc)
		return -1;
	o->given[option_index(d)] = 1;
	if (kv && kvs_put(kv, key, value, file, line))
		return oom(err, errlen);
	return 0;
}

/*
 * fio reads kb_base before every other option of a section, whatever the
 * order they are written in ("bsrange=4k-16k" then "kb_base=1000" is
 * 4000-16000). Options here are applied as they come, so a kb_base that
 * arrives late re-reads the options its section already set.
 */
static int apply_section(struct job_options *o, struct job_kvs *kv, const char *key,
			 const char *value, const char *file, int line, char *err, size_t errlen)
{
	if (apply_option(o, kv, key, value, file, line, err, errlen))
		return -1;
	if (strcmp(key, "kb_base"))
		return 0;
	for (size_t i = 0; i < kv->n; i++) {
		const struct job_kv *e = &kv->v[i];
		char why[JOB_ERR_LEN];

		if (!strcmp(e->key, "kb_base"))
			continue;
		if (apply_option(o, NULL, e->key, e->value, e->file, e->line, why, sizeof(why))) {
			snprintf(err, errlen, "%s:%d: %s (read again with kb_base=%s)", e->file,
				 e->line, why, value ? value : "");
			return -1;
		}
	}
	return 0;
}

static struct job_desc *new_job(struct job_set *js, const char *name, const char *file, int line,
				char *err, size_t errlen)
{
	struct job_desc *grown = realloc(js->jobs, (js->njobs + 1) * sizeof(*grown));
	struct job_desc *j;

	if (!grown) {
		oom(err, errlen);
		return NULL;
	}
	js->jobs = grown;
	j = &js->jobs[js->njobs];
	memset(j, 0, sizeof(*j));
	if (job_options_copy(&j->o, &js->global)) {
		oom(err, errlen);
		return NULL;
	}
	free(j->o.name);
	j->o.name = strdup(name);
	j->file = strdup(file);
	j->line = line;
	if (!j->o.name || !j->file) {
		job_options_free(&j->o);
		free(j->file);
		oom(err, errlen);
		return NULL;
	}
	js->njobs++;
	return j;
}

struct file_ctx {
	struct job_set *js;
	struct job_desc *job; /* NULL inside [global] or before any section */
};

static int on_ini(void *ctx, const struct ini_event *ev, char *err, size_t errlen)
{
	struct file_ctx *fc = ctx;

	if (ev->kind == INI_SECTION) {
		if (!strcmp(ev->section, "global")) {
			fc->job = NULL;
			return 0;
		}
		fc->job = new_job(fc->js, ev->section, ev->file, ev->line, err, errlen);
		return fc->job ? 0 : -1;
	}
	if (!ev->section) {
		snprintf(err, errlen, "option '%s' before any [section]", ev->key);
		return -1;
	}
	if (!fc->job)
		return apply_section(&fc->js->global, &fc->js->global_kv, ev->key, ev->value,
				     ev->file, ev->line, err, errlen);
	if (!strcmp(ev->key, "name")) {
		/* A section is named by its header; name= would rename it. */
		snprintf(err, errlen, "option 'name' inside a job section: the job is named [%s]",
			 ev->section);
		return -1;
	}
	return apply_section(&fc->job->o, &fc->job->kv, ev->key, ev->value, ev->file, ev->line,
			     err, errlen);
}

static int job_parse_file(struct job_set *js, const char *path, char *err, size_t errlen)
{
	struct file_ctx fc = { .js = js };

	return ini_parse_file(path, on_ini, &fc, err, errlen);
}

int job_parse_buffer(struct job_set *js, const char *name, const char *text, size_t len,
		     char *err, size_t errlen)
{
	struct file_ctx fc = { .js = js };

	return ini_parse_buffer(name, text, len, on_ini, &fc, err, errlen);
}

static int job_apply_set(struct job_set *js, const char *kv, char *err, size_t errlen)
{
	const char *eq = strchr(kv, '=');
	char key[128], msg[JOB_ERR_LEN];

	if (!eq || eq == kv || (size_t)(eq - kv) >= sizeof(key)) {
		snprintf(err, errlen, "--set '%s': expected KEY=VALUE", kv);
		return -1;
	}
	snprintf(key, sizeof(key), "%.*s", (int)(eq - kv), kv);
	if (!strcmp(key, "name")) {
		snprintf(err, errlen, "--set name=...: jobs keep their names");
		return -1;
	}
	for (size_t i = 0; i < js->njobs; i++) {
		struct job_desc *j = &js->jobs[i];

		if (apply_option(&j->o, &j->kv, key, eq + 1, "--set", 0, msg, sizeof(msg))) {
			snprintf(err, errlen, "--set %s: %s", kv, msg);
			return -1;
		}
	}
	return 0;
}

static const struct {
	const char *name;
	unsigned bits;
} output_formats[] = {
	{ "normal", OUTPUT_NORMAL },
	{ "json", OUTPUT_JSON },
	{ "json+", OUTPUT_JSON_PLUS },
};

/* "normal,json" as fio allows; json+ includes json. */
static int parse_output_format(const char *v, unsigned *bits, char *err, size_t errlen)
{
	char buf[128], *save = NULL, *tok;

	snprintf(buf, sizeof(buf), "%s", v);
	*bits = 0;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		size_t i;

		for (i = 0; i < sizeof(output_formats) / sizeof(output_formats[0]); i++)
			if (!strcmp(tok, output_formats[i].name))
				break;
		if (i == sizeof(output_formats) / sizeof(output_formats[0])) {
			snprintf(err, errlen,
				 "--output-format: '%s' is not one of normal, json, json+", tok);
			return -1;
		}
		*bits |= output_formats[i].bits;
	}
	if (!*bits) {
		snprintf(err, errlen, "--output-format needs a value");
		return -1;
	}
	return 0;
}

/* Options of the program itself, not of jobs. */
enum meta_opt { META_OUTPUT, META_FORMAT, META_SET, META_HELP, META_CMDHELP, META_VERSION,
		META_ETA };
static const struct {
	const char *name;
	enum meta_opt id;
	int has_arg; /* 1 required, 0 none, 2 optional (only as --x=v) */
} meta_opts[] = {
	{ "output", META_OUTPUT, 1 },	   { "output-format", META_FORMAT, 1 },
	{ "set", META_SET, 1 },		   { "help", META_HELP, 0 },
	{ "cmdhelp", META_CMDHELP, 2 },	   { "version", META_VERSION, 0 },
	{ "eta", META_ETA, 1 },
};

static int handle_meta(struct job_set *js, enum meta_opt id, const char *value, char *err,
		       size_t errlen)
{
	switch (id) {
	case META_OUTPUT:
		free(js->output);
		if (!(js->output = strdup(value)))
			return oom(err, errlen);
		return 0;
	case META_FORMAT:
		return parse_output_format(value, &js->output_format, err, errlen);
	case META_SET: {
		const char *eq = strchr(value, '=');

		if (!eq || eq == value) {
			snprintf(err, errlen, "--set '%s': expected KEY=VALUE", value);
			return -1;
		}
		char key[128];

		snprintf(key, sizeof(key), "%.*s", (int)(eq - value), value);
		if (!option_find(key)) {
			snprintf(err, errlen, "--set %s: unknown option '%s' (see --cmdhelp)",
				 value, key);
			return -1;
		}
		/* Kept as a list (not a map): applied in order at the end. */
		struct job_kv *grown = realloc(js->sets.v, (js->sets.n + 1) * sizeof(*grown));

		if (!grown)
			return oom(err, errlen);
		js->sets.v = grown;
		memset(&grown[js->sets.n], 0, sizeof(grown[0]));
		grown[js->sets.n].key = strdup(value);
		grown[js->sets.n].file = strdup("--set");
		js->sets.n++;
		if (!grown[js->sets.n - 1].key || !grown[js->sets.n - 1].file)
			return oom(err, errlen);
		return 0;
	}
	case META_HELP:
		js->action = JOB_HELP;
		return 0;
	case META_CMDHELP:
		js->action = JOB_CMDHELP;
		free(js->cmdhelp);
		js->cmdhelp = value ? strdup(value) : NULL;
		if (value && !js->cmdhelp)
			return oom(err, errlen);
		return 0;
	case META_VERSION:
		js->action = JOB_VERSION;
		return 0;
	case META_ETA:
		/* We never print a progress line, which is what "never" asks for. */
		if (strcmp(value, "never")) {
			snprintf(err, errlen, "--eta=%s: only --eta=never is supported", value);
			return -1;
		}
		return 0;
	}
	return 0;
}

int job_parse_args(struct job_set *js, int argc, char **argv, char *err, size_t errlen)
{
	struct job_desc *cur = NULL;
	size_t cur_index = 0;
	char msg[JOB_ERR_LEN];
	const char **files = NULL;
	size_t nfiles = 0;
	int rc = -1;

	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i], *eq, *value = NULL;
		char name[128];
		size_t k;

		if (arg[0] != '-' || !arg[1]) {
			const char **grown = realloc(files, (nfiles + 1) * sizeof(*grown));

			if (!grown) {
				oom(err, errlen);
				goto out;
			}
			files = grown;
			files[nfiles++] = arg;
			continue;
		}
		/* fio takes -name=x and --name=x alike (getopt_long_only). */
		arg += arg[1] == '-' ? 2 : 1;
		eq = strchr(arg, '=');
		if ((eq ? (size_t)(eq - arg) : strlen(arg)) >= sizeof(name)) {
			snprintf(err, errlen, "%s: option name too long", CMDLINE);
			goto out;
		}
		snprintf(name, sizeof(name), "%.*s", (int)(eq ? eq - arg : (long)strlen(arg)), arg);
		if (eq)
			value = eq + 1;

		for (k = 0; k < sizeof(meta_opts) / sizeof(meta_opts[0]); k++)
			if (!strcmp(name, meta_opts[k].name))
				break;
		if (k < sizeof(meta_opts) / sizeof(meta_opts[0])) {
			if (!value && meta_opts[k].has_arg == 1) {
				if (i + 1 >= argc) {
					snprintf(err, errlen, "%s: --%s needs a value", CMDLINE,
						 name);
					goto out;
				}
				value = argv[++i];
			}
			if (value && meta_opts[k].has_arg == 0) {
				snprintf(err, errlen, "%s: --%s takes no value", CMDLINE, name);
				goto out;
			}
			if (handle_meta(js, meta_opts[k].id, value, msg, sizeof(msg))) {
				snprintf(err, errlen, "%s: %s", CMDLINE, msg);
				goto out;
			}
			continue;
		}

		const struct option_def *d = option_find(name);

		if (!d) {
			snprintf(err, errlen, "%s: unknown option '--%s' (see --help and --cmdhelp)",
				 CMDLINE, name);
			goto out;
		}
		/* As with getopt: flags take a value only as --flag=v, others the next word. */
		if (!value && !option_is_flag(d)) {
			if (i + 1 >= argc) {
				snprintf(err, errlen, "%s: option '--%s' needs a value", CMDLINE,
					 name);
				goto out;
			}
			value = argv[++i];
		}
		if (!strcmp(d->name, "name")) {
			cur = new_job(js, value, CMDLINE, 0, msg, sizeof(msg));
			if (!cur || kvs_put(&cur->kv, "name", value, CMDLINE, 0)) {
				snprintf(err, errlen, "%s: %s", CMDLINE, msg);
				goto out;
			}
			cur_index = js->njobs - 1;
			continue;
		}
		if (cur)
			cur = &js->jobs[cur_index]; /* new_job may have moved the array */
		if (apply_option(cur ? &cur->o : &js->global, cur ? &cur->kv : &js->global_kv, name,
				 value, CMDLINE, 0, msg, sizeof(msg))) {
			snprintf(err, errlen, "%s: %s", CMDLINE, msg);
			goto out;
		}
	}
	if (js->action != JOB_RUN) {
		rc = 0;
		goto out;
	}
	for (size_t f = 0; f < nfiles; f++)
		if (job_parse_file(js, files[f], err, errlen))
			goto out;
	for (size_t s = 0; s < js->sets.n; s++)
		if (job_apply_set(js, js->sets.v[s].key, err, errlen))
			goto out;
	if (!js->njobs) {
		snprintf(err, errlen, "no jobs defined: give a job file or --name=NAME");
		goto out;
	}
	rc = job_set_validate(js, err, errlen);
out:
	free(files);
	return rc;
}

void job_option_origin(const struct job_desc *j, const char *name, char *buf, size_t len)
{
	for (size_t i = 0; i < j->kv.n; i++)
		if (!strcmp(j->kv.v[i].key, name) ||
		    (option_find(j->kv.v[i].key) && option_find(j->kv.v[i].key) == option_find(name))) {
			if (j->kv.v[i].line)
				snprintf(buf, len, "%s:%d", j->kv.v[i].file, j->kv.v[i].line);
			else
				snprintf(buf, len, "%s", j->kv.v[i].file);
			return;
		}
	if (j->line)
		snprintf(buf, len, "%s:%d", j->file, j->line);
	else
		snprintf(buf, len, "%s", j->file);
}

static int job_fail(const struct job_desc *j, const char *option, char *err, size_t errlen,
		    const char *fmt, ...)
{
	char where[512], msg[JOB_ERR_LEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	job_option_origin(j, option, where, sizeof(where));
	snprintf(err, errlen, "%s: job '%s': %s", where, j->o.name, msg);
	return -1;
}

/* Options that only one engine has (fio knows them only once the engine is loaded). */
static const struct {
	const char *option;
	uint32_t engine;
} engine_only[] = {
	{ "hipri", ENGINE_IO_URING },	   { "fixedbufs", ENGINE_IO_URING },
	{ "registerfiles", ENGINE_IO_URING }, { "sqthread_poll", ENGINE_IO_URING },
	{ "userspace_reap", ENGINE_LIBAIO },
};

static int validate_job(const struct job_desc *j, char *err, size_t errlen)
{
	const struct job_options *o = &j->o;

	for (size_t i = 0; i < sizeof(engine_only) / sizeof(engine_only[0]); i++) {
		const struct option_def *d = option_find(engine_only[i].option);

		if (o->given[option_index(d)] && o->ioengine != engine_only[i].engine)
			return job_fail(j, d->name, err, errlen,
					"option '%s' belongs to ioengine=%s, not %s", d->name,
					option_choice_name("ioengine", engine_only[i].engine),
					option_choice_name("ioengine", o->ioengine));
	}
	if (o->time_based && !o->runtime_us)
		return job_fail(j, "time_based", err, errlen,
				"time_based needs a runtime (it would never end)");
	if (o->iodepth_batch_complete_max && o->iodepth_batch_complete_max < o->iodepth_batch_complete_min)
		return job_fail(j, "iodepth_batch_complete_max", err, errlen,
				"iodepth_batch_complete_max is below iodepth_batch_complete_min");
	if (o->fixedbufs && o->iodepth > 1024)
		return job_fail(j, "fixedbufs", err, errlen, "fixedbufs allows iodepth <= 1024");
	if (o->verify && rw_reads(o) && rw_writes(o))
		return job_fail(j, "verify", err, errlen,
				"verify with mixed reads and writes is not supported: "
				"verify a write job, or a read job over verified data");
	if (o->verify && rw_random(o) && (o->norandommap || o->random_distribution != DIST_RANDOM))
		return job_fail(j, "verify", err, errlen,
				"verify needs every block written once: not with norandommap or a "
				"zipf/pareto distribution");
	if (o->verify && (o->bs_min[DDIR_WRITE] != o->bs_max[DDIR_WRITE] ||
			  o->bs_min[DDIR_READ] != o->bs_max[DDIR_READ]))
		return job_fail(j, "verify", err, errlen, "verify needs a fixed block size");
	if (o->verify && o->zero_buffers)
		return job_fail(j, "verify", err, errlen, "verify needs data, not zero_buffers");
	for (int dir = 0; dir < DDIR_NR; dir++) {
		if (o->verify && o->bs_min[dir] < 512)
			return job_fail(j, "bs", err, errlen, "verify needs blocks of >= 512 bytes");
	}
	if (!o->filename && !o->size && !o->size_pct && !o->filesize)
		return job_fail(j, "size", err, errlen,
				"you need to specify size= (or filename= of an existing file)");
	return 0;
}

int job_set_validate(struct job_set *js, char *err, size_t errlen)
{
	for (size_t i = 0; i < js->njobs; i++)
		if (validate_job(&js->jobs[i], err, errlen))
			return -1;
	return 0;
}

void job_print_usage(FILE *f, const char *prog)
{
	fprintf(f,
		"usage: %s [options] [job files]\n"
		"\n"
		"Runs fio job files and fio-style options, as fio 3.x does.\n"
		"\n"
		"  --name=NAME            start a job on the command line; options after it\n"
		"                         belong to it (before any --name they are defaults)\n"
		"  --OPTION=VALUE         any job option (--cmdhelp lists them); -OPTION VALUE too\n"
		"  --output=FILE          write the report to FILE (replaced whole, never half)\n"
		"  --output-format=LIST   normal, json or json+ (comma-separated for several)\n"
		"  --cmdhelp[=OPTION]     the job options, or one option in detail\n"
		"  --eta=never            accepted: no progress line is ever printed\n"
		"  --version              the version\n"
		"  --help                 this text\n"
		"\n"
		"iomatrix extension:\n"
		"  --set KEY=VALUE        apply an option to every job after all job files\n"
		"                         and options are read (fio has no such option: its\n"
		"                         command-line options are only defaults that a job\n"
		"                         file's [global] overrides). Repeatable.\n",
		prog);
}
