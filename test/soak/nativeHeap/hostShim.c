// Preloaded into code-server by run.sh: when code-server starts an extension host, the host runs
// under heaptrack's preload library, with V8 writing a perf map so its JavaScript frames can be named.
// VS Code strips LD_PRELOAD from the environment of the processes it starts, and heaptrack's attach
// (heaptrack -p) crashed the host (Node 24, heaptrack 1.4), so the host's exec is changed instead.
// Only async-signal-safe work after fork: no allocation, static buffers.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef int (*execve_t)(const char *, char *const[], char *const[]);
typedef int (*execvp_t)(const char *, char *const[]);
typedef int (*execvpe_t)(const char *, char *const[], char *const[]);
static execve_t real_execve;
static execvp_t real_execvp;
static execvpe_t real_execvpe;
extern char **environ;

__attribute__((constructor)) static void resolve_exec(void) {
  real_execve = (execve_t)dlsym(RTLD_NEXT, "execve");
  real_execvp = (execvp_t)dlsym(RTLD_NEXT, "execvp");
  real_execvpe = (execvpe_t)dlsym(RTLD_NEXT, "execvpe");
}

static int is_extension_host(char *const argv[]) {
  for (int i = 0; argv && argv[i]; i++)
    if (strstr(argv[i], "--type=extensionHost")) return 1;
  return 0;
}

static char *traced_argv[1024];
static char *traced_envp[8192];
static char dump_output[4096];

// Node's own flags go right after the program, so the host's children do not inherit them.
static char *const *with_perf_map(char *const argv[]) {
  int n = 0;
  traced_argv[n++] = argv[0];
  traced_argv[n++] = "--perf-basic-prof";
  traced_argv[n++] = "--interpreted-frames-native-stack";
  // The perf map makes V8 write its own log too, by default into the host's working directory.
  traced_argv[n++] = "--logfile=/dev/null";
  for (int i = 1; argv[i] && n < 1023; i++) traced_argv[n++] = argv[i];
  traced_argv[n] = 0;
  return traced_argv;
}

static char *const *with_heaptrack(char *const envp[]) {
  int n = 0;
  const char *dir = "/tmp";
  for (int i = 0; envp && envp[i]; i++)
    if (strncmp(envp[i], "NATIVE_HEAP_DIR=", 16) == 0) dir = envp[i] + 16;
  for (int i = 0; envp && envp[i] && n < 8189; i++)
    if (strncmp(envp[i], "LD_PRELOAD=", 11) != 0) traced_envp[n++] = envp[i];
  traced_envp[n++] = "LD_PRELOAD=/usr/lib/heaptrack/libheaptrack_preload.so";
  snprintf(dump_output, sizeof dump_output, "DUMP_HEAPTRACK_OUTPUT=%s/host-%d.raw", dir, getpid());
  traced_envp[n++] = dump_output;
  traced_envp[n] = 0;
  return traced_envp;
}

int execve(const char *path, char *const argv[], char *const envp[]) {
  if (!is_extension_host(argv)) return real_execve(path, argv, envp);
  return real_execve(path, with_perf_map(argv), with_heaptrack(envp));
}

int execvpe(const char *file, char *const argv[], char *const envp[]) {
  if (!is_extension_host(argv)) return real_execvpe(file, argv, envp);
  return real_execvpe(file, with_perf_map(argv), with_heaptrack(envp));
}

int execvp(const char *file, char *const argv[]) {
  if (!is_extension_host(argv)) return real_execvp(file, argv);
  return real_execvpe(file, with_perf_map(argv), with_heaptrack(environ));
}
