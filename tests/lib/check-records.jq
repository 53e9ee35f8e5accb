# Checks one iomatrix record (docs/records.md) for completeness and sane
# values; prints one line per problem, nothing when the record is good.
# Used by tests/lib/check-records.
def keys_needed: ["iomatrix_record", "run_id", "seq", "boot", "matrix", "scale", "cell",
  "repeat", "status", "error", "error_detail", "teardown_error", "crash", "kernel", "machine",
  "settings", "disks", "array", "fs", "times", "workload", "headline", "vmstat_delta",
  "diskstats_delta", "cpu"];
def md_level: . != "jbod";
def problem(cond; what): if cond then empty else "seq \(.seq // "?"): \(what)" end;

. as $r
| (keys_needed[] | . as $k | $r | problem(has($k); "key \($k) missing")),
  problem(.iomatrix_record == 1; "iomatrix_record is \(.iomatrix_record)"),
  problem(.cell.index >= 1 and .cell.index <= .cell.count; "cell.index \(.cell.index) of \(.cell.count)"),
  problem((.cell.key | length) > 0 and (.cell.dims | length) > 0; "cell key or dims empty"),
  problem(([.cell.dims | to_entries[] | "\(.key)=\(.value)"] | join(" ")) == .cell.key; "cell.key does not list cell.dims"),
  problem((.kernel.release | length) > 0 and (.kernel.proc_version | startswith("Linux version")); "kernel"),
  problem((.kernel.cmdline | length) > 0; "kernel.cmdline empty"),
  problem(.boot >= 1; "boot \(.boot)"),
  problem((.status == "crashed") == (.crash != null); "crash is \(.crash) in a \(.status) record"),
  problem(.machine.cpus >= 1 and .machine.mem_kb > 0 and (.machine.cpu_model | length) > 0; "machine"),
  if .status == "ok" then
    problem(.error == null and .error_detail == null and .teardown_error == null; "ok with an error"),
    problem((.disks | length) == .settings.disks; "\(.disks | length) disks, settings say \(.settings.disks)"),
    problem(all(.disks[]; .size_bytes > 0 and (.name | length) > 0 and (.serial | length) > 0); "a disk without name, serial or size"),
    problem(.array.level == .settings.array; "array.level \(.array.level)"),
    problem((.array.members | length) == .settings.disks; "array members"),
    if (.array.level | md_level) then
      problem((.array.device | test("^md[0-9]+$")) and (.array.device as $d | .array.mdstat | contains($d)); "md device or mdstat"),
      # md linear keeps no IO statistics of its own (6.1): only that the device is listed
      problem(.diskstats_delta[.array.device] != null; "the md device's diskstats missing"),
      problem(.array.create_command | startswith("mdadm --create /dev/"); "create command")
    else
      problem(.array.device == null; "jbod with an md device")
    end,
    problem(.fs.type == .settings.fs; "fs.type \(.fs.type)"),
    problem((.fs.filesystems | length) == (if .settings.array == "jbod" then .settings.disks else 1 end); "filesystems"),
    problem(all(.fs.filesystems[]; .readahead_sectors >= 0 and (.mkfs_command | length) > 0); "mkfs command or readahead"),
    problem(.times.setup_s > 0 and .times.workload_s > 0 and .times.teardown_s > 0 and .times.start_unix > 1.6e9; "times"),
    problem(.times.steps | has("mkfs") and has("mount") and has("drop_caches") and has("workload") and has("umount") and has("wipe"); "steps"),
    problem((.workload.command | length) > 0 and (.workload.summary | length) > 0; "workload command"),
    if .workload.kind == "dd" then
      problem(.workload.dd.bw_bytes > 0 and .workload.dd.io_bytes > 0 and .workload.dd.error == null; "dd report"),
      problem(.workload.dd.size_per_writer == 0 or .workload.dd.io_bytes == .workload.dd.writers * .workload.dd.size_per_writer; "dd wrote \(.workload.dd.io_bytes) bytes, not writers x size"),
      problem(.headline.write_bw_bytes == .workload.dd.bw_bytes; "dd headline")
    elif .workload.kind == "fio" then
      problem((.workload.fio.jobs | length) >= 1; "fio report without jobs"),
      problem(all(.workload.fio.jobs[]; .error == 0); "a fio job with an error"),
      problem(([.workload.fio.jobs[] | .read.io_bytes + .write.io_bytes] | add) > 0; "fio did no IO"),
      problem(.headline.read_bw_bytes + .headline.write_bw_bytes > 0; "fio headline")
    else
      "seq \(.seq): workload.kind \(.workload.kind)"
    end,
    problem((.vmstat_delta | length) > 0; "vmstat_delta empty"),
    problem(all(.disks[].name as $d | $r.diskstats_delta[$d]; . != null); "diskstats of a member missing"),
    problem([.disks[].name as $d | $r.diskstats_delta[$d] | .sectors_written + .sectors_read] | add > 0; "no IO on the disks"),
    problem(((.cpu | [.user_pct, .nice_pct, .system_pct, .idle_pct, .iowait_pct, .irq_pct, .softirq_pct, .steal_pct] | add) - 100 | fabs) < 0.5; "cpu percentages do not add up to 100")
  elif .status == "crashed" then
    problem(.crash.boot >= 1 and .crash.recorded_boot == .boot and .crash.boot < .boot; "crash boots \(.crash.boot) recorded on \(.crash.recorded_boot), record of boot \(.boot)"),
    problem((.crash.stage | IN("setup", "workload", "teardown", "record")); "crash stage \(.crash.stage)"),
    problem(.crash.since_unix > 1.6e9 and .times.start_unix == .crash.since_unix; "crash since_unix"),
    problem((.error | startswith("crashed: the machine died during ")) and (.error_detail.step | length) > 0; "crashed without its error"),
    problem(.disks == null and .workload.fio == null and .workload.dd == null and .times.workload_s == null; "crashed with results")
  elif .status == "skipped" then
    problem((.error | type) == "string" and (.error | length) > 0; "skipped without a reason"),
    problem(.disks == null and .workload.fio == null and .workload.dd == null; "skipped with results")
  else
    problem((.error | length) > 0 and (.error_detail.step | length) > 0; "\(.status) without its error")
  end
