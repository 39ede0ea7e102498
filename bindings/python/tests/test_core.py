# SPDX-License-Identifier: Apache-2.0
"""Core wrappers: errors, enums, Context, time, version, policy, phases."""

import datetime
import gc
import os
import threading

import pytest

import velstatus as vs
from velstatus._ffi import ffi, lib
from velstatus._enums import CEnum

UTC = datetime.timezone.utc


# -- errors --------------------------------------------------------------------

EXCEPTIONS = [(vs.NoMemory, "E_NOMEM", MemoryError), (vs.InvalidArgument, "E_INVALID", ValueError),
              (vs.ParseError, "E_PARSE", ValueError), (vs.SchemaError, "E_SCHEMA", ValueError),
              (vs.HostError, "E_HOST", vs.VelstatusError), (vs.AbiError, "E_ABI", vs.VelstatusError),
              (vs.RangeError, "E_RANGE", OverflowError), (vs.StateError, "E_STATE", vs.VelstatusError)]


@pytest.mark.parametrize("cls,name,builtin", EXCEPTIONS)
def test_exception_chosen_by_code(cls, name, builtin):
    err = ffi.new("velstatus_error *")
    code = getattr(lib, "VELSTATUS_" + name)
    err.code = code
    err.host_code = -42
    err.line, err.column, err.offset = 3, 7, 99
    msg = "items[3].status.phase: boom"
    ffi.memmove(err.message, msg.encode(), len(msg))
    exc = vs._errors.error_from(code, err)
    assert type(exc) is cls
    assert isinstance(exc, vs.VelstatusError) and isinstance(exc, builtin)
    assert exc.code == code == cls.code
    assert exc.message == msg
    assert str(exc) == msg + " (line 3, column 7)"  # the position, once
    assert (exc.host_code, exc.line, exc.column, exc.offset) == (-42, 3, 7, 99)
    assert exc.status_name == "VELSTATUS_" + name
    with pytest.raises(cls):
        vs._errors.check(code, err)


def test_unmapped_code_is_base_class_with_c_text():
    err = ffi.new("velstatus_error *")
    exc = vs._errors.error_from(lib.VELSTATUS_E_INTERNAL, err)
    assert type(exc) is vs.VelstatusError
    assert str(exc) == vs.status_str(lib.VELSTATUS_E_INTERNAL) != ""
    vs._errors.check(lib.VELSTATUS_OK, err)  # OK raises nothing


def test_status_enum_comes_from_c():
    assert vs.Status.OK == 0 and vs.Status.E_PARSE == lib.VELSTATUS_E_PARSE
    assert str(vs.Status.E_NOMEM) == "VELSTATUS_E_NOMEM"
    assert [s.name for s in vs.Status][:3] == ["OK", "E_NOMEM", "E_INVALID"]
    for s in vs.Status:
        assert vs.status_name(s) == "VELSTATUS_" + s.name


# -- enums -------------------------------------------------------------------

def test_phase_enum_is_the_c_table():
    assert len(vs.Phase) == 13  # doc/velero-behaviour.md §5.1: a backup has 13 phases
    for p in vs.Phase:
        assert str(p) == p.value == ffi.string(lib.velstatus_phase_to_string(p.c)).decode()
        assert vs.Phase.from_c(p.c) is p and vs.Phase(p.value) is p
        assert vs.Phase.parse(p.value, "backup") is p
    assert vs.Phase.WAITING_FOR_PLUGIN_OPERATIONS.value == "WaitingForPluginOperations"
    assert vs.Phase.COMPLETED.c == lib.VELSTATUS_PHASE_COMPLETED


def test_restore_has_ten_phases():
    restore = [p for p in vs.Phase if p.valid_for(vs.Kind.RESTORE)]
    assert len(restore) == 10  # doc/velero-behaviour.md §5.1
    assert vs.Phase.QUEUED not in restore and vs.Phase.DELETING not in restore


def test_phase_parse_empty_is_new_and_errors_name_the_phase():
    assert vs.Phase.parse("", "restore") is vs.Phase.NEW
    with pytest.raises(vs.InvalidArgument, match='"Queued"') as ei:
        vs.Phase.parse("Queued", vs.Kind.RESTORE)
    assert ei.value.code == lib.VELSTATUS_E_INVALID
    with pytest.raises(vs.InvalidArgument, match="Done"):
        vs.Phase.parse("Done")
    with pytest.raises(ValueError):
        vs.Phase("completed")  # wire spelling is exact


def test_terminal_phases():
    terminal = {p for p in vs.Phase if p.is_terminal("backup")}
    assert terminal == {vs.Phase.FAILED_VALIDATION, vs.Phase.COMPLETED, vs.Phase.PARTIALLY_FAILED,
                        vs.Phase.FAILED}


def test_other_enums():
    assert [str(k) for k in vs.Kind] == ["backup", "restore"]
    assert [str(p) for p in vs.Preset] == ["velero", "hardened"]
    assert {str(a) for a in vs.RestartAction} == {"none", "mark_failed", "requeue"}
    assert vs.Kind.coerce("restore") is vs.Kind.RESTORE
    assert vs.Kind.coerce(lib.VELSTATUS_KIND_BACKUP) is vs.Kind.BACKUP
    with pytest.raises(ValueError):
        vs.Kind.from_c(7)
    with pytest.raises(TypeError):
        vs.Kind.coerce(1.0)


# -- Context -----------------------------------------------------------------

def test_context_close_and_closed_use():
    ctx = vs.Context()
    assert not ctx.closed
    with ctx:
        with ctx._held() as p:
            assert p != ffi.NULL
    assert ctx.closed
    ctx.close()  # idempotent
    with pytest.raises(vs.StateError, match="closed"):
        with ctx._held():
            pass


def test_context_reentry_is_a_state_error():
    ctx = vs.Context()
    with ctx._held():
        with pytest.raises(vs.StateError, match="re-entered"):
            with ctx._held():
                pass
    with ctx._held():  # the lock was released
        pass


def test_context_lock_serialises_threads():
    ctx = vs.Context()
    inside = []
    overlap = []

    def work():
        for _ in range(200):
            with ctx._held():
                inside.append(1)
                if len(inside) > 1:
                    overlap.append(1)
                inside.pop()

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not overlap


def test_context_freed_on_gc():
    ctx = vs.Context()
    ref = __import__("weakref").ref(ctx)
    del ctx
    gc.collect()
    assert ref() is None


# -- version -----------------------------------------------------------------

def test_version_matches_header():
    assert vs.__version__ == vs.version() == ffi.string(lib.velstatus_version_string()).decode()
    major, minor, patch = vs.version_info()
    assert (major, minor, patch) == (lib.VELSTATUS_VERSION_MAJOR, lib.VELSTATUS_VERSION_MINOR,
                                     lib.VELSTATUS_VERSION_PATCH)
    assert vs.version() == "%d.%d.%d" % (major, minor, patch)


# -- time --------------------------------------------------------------------

def test_parse_time_agrees_with_datetime():
    dt = datetime.datetime(2024, 5, 1, 10, 0, 0, 500000, tzinfo=UTC)
    ns = vs.parse_time("2024-05-01T10:00:00.5Z")
    assert ns == vs.time_ns(dt) == int(dt.timestamp()) * 10**9 + 500_000_000
    assert vs.parse_time("2024-05-01T12:00:00.5+02:00") == ns
    assert vs.format_time(ns) == "2024-05-01T10:00:00.5Z"
    assert vs.format_time(ns, fraction=False) == "2024-05-01T10:00:00Z"
    assert vs.format_time_go(ns) == "2024-05-01 10:00:00.5 +0000 UTC"
    assert vs.format_time(dt) == vs.format_time("2024-05-01T10:00:00.5Z")


def test_parse_time_error_position():
    with pytest.raises(vs.ParseError) as ei:
        vs.parse_time("2024-05-01X10:00:00Z")
    e = ei.value
    assert e.offset == 10 and e.column == 11 and e.line == 1
    assert "2024-05-01X10:00:00Z" in str(e)
    with pytest.raises(vs.ParseError):
        vs.parse_time("10000-01-01T00:00:00Z")  # Go reads 4-digit years only


def test_parse_time_go_string_as_velero_prints():
    # velero backup describe prints Go's Time.String() in the client's zone
    # (issue 22); the offset decides, the abbreviation is ignored
    ns = vs.parse_time("2023-11-10T15:40:35Z")
    assert vs.parse_time_go_string("2023-11-10 16:40:35 +0100 CET") == ns
    assert vs.parse_time_go_string("2023-11-10 21:10:35 +0530 IST") == ns
    assert vs.parse_time_go_string("2023-11-10 16:40:35 +0100 XYZ") == ns
    assert vs.parse_time_go_string("2023-11-10 15:40:35.25 +0000 UTC m=+0.5") == ns + 250_000_000
    assert vs.parse_time_go_string("0001-01-01 00:00:00 +0000 UTC") == vs.parse_time("0001-01-01T00:00:00Z")
    with pytest.raises(vs.ParseError) as ei:
        vs.parse_time_go_string("2023-11-10T16:40:35+01:00")
    assert ei.value.offset == 10


def test_parse_time_holds_go_whole_range():
    # exact past int64 nanoseconds (this assertion was a RangeError in 0.1)
    assert vs.parse_time("2263-01-01T00:00:00Z") == 9246182400 * 10**9
    zero = vs.parse_time("0001-01-01T00:00:00Z")  # Go's zero time.Time
    assert zero == -62135596800 * 10**9
    assert vs.parse_time("0001-01-01T01:00:00+01:00") == zero
    assert vs.parse_time("9999-12-31T23:59:59.999999999Z") == 253402300799 * 10**9 + 999999999
    assert vs.parse_time("0000-01-01T00:00:00Z") == -62167219200 * 10**9
    assert vs.format_time(zero, fraction=False) == "0001-01-01T00:00:00Z"
    assert vs.format_time("0000-01-01T00:00:00+00:01") == "-0001-12-31T23:59:00Z"
    assert vs.format_time("9999-12-31T23:59:59-00:01") == "10000-01-01T00:00:59Z"
    assert vs.format_time(-1) == "1969-12-31T23:59:59.999999999Z"
    with pytest.raises(OverflowError):
        vs.format_time(1 << 63 << 30)  # its second does not fit int64
    # an instant outside int64 cannot be handed to the library
    with pytest.raises(OverflowError):
        vs.time_ns("0001-01-01T00:00:00Z")
    # datetime holds years 1-9999 and microseconds
    assert vs.to_datetime(zero) == datetime.datetime(1, 1, 1, tzinfo=UTC)
    assert vs.to_datetime(vs.parse_time("9999-12-31T23:59:59.999999999Z")) == \
        datetime.datetime(9999, 12, 31, 23, 59, 59, 999999, tzinfo=UTC)
    assert vs.to_datetime(-1) == datetime.datetime(1969, 12, 31, 23, 59, 59, 999999, tzinfo=UTC)
    for text in ("0000-12-31T23:59:59Z", "0000-01-01T00:00:00+00:01", "9999-12-31T23:59:59-00:01"):
        with pytest.raises(vs.RangeError, match="outside the years 1-9999"):
            vs.to_datetime(vs.parse_time(text))
    with pytest.raises(TypeError):
        vs.to_datetime("0001-01-01T00:00:00Z")
    with pytest.raises(TypeError):
        vs.to_datetime(True)


def test_naive_datetime_rejected():
    with pytest.raises(vs.InvalidArgument):
        vs.time_ns(datetime.datetime(2024, 1, 1))
    with pytest.raises(OverflowError):
        vs.time_ns(1 << 63)
    with pytest.raises(TypeError):
        vs.time_ns(1.5)


def test_durations():
    assert vs.parse_duration("1h30m") == 90 * 60 * 10**9
    assert vs.parse_duration("-1.5s") == -1_500_000_000
    assert vs.format_duration(4 * 3600 * 10**9) == "4h0m0s"
    assert vs.format_duration(datetime.timedelta(microseconds=3)) == "3\u00b5s"
    assert vs.format_duration("90m") == "1h30m0s"
    assert vs.duration_ns(datetime.timedelta(seconds=2)) == 2 * 10**9
    with pytest.raises(vs.ParseError, match='missing unit in duration "10"'):
        vs.parse_duration("10")
    with pytest.raises(vs.RangeError):
        vs.parse_duration("9999999999h")


# -- policy ------------------------------------------------------------------

def test_policy_knobs_are_the_c_fields():
    names = [n for n, _ in ffi.typeof("velstatus_policy").fields]
    assert list(vs.Policy.KNOBS) == [n for n in names if n not in ("struct_size", "preset")]
    assert "level_triggered_partial_failure" in vs.Policy.KNOBS


def test_policy_presets_differ_as_documented():
    velero, hardened = vs.Policy.velero(), vs.Policy.hardened()
    assert velero.preset is vs.Preset.VELERO and hardened.preset is vs.Preset.HARDENED
    assert velero.level_triggered_partial_failure is False  # doc/design.md §2
    assert hardened.level_triggered_partial_failure is True
    assert velero.zero_timeout_expires is True and hardened.zero_timeout_expires is False
    assert hardened.progress_error_grace_ns == 60 * 10**9
    assert velero != hardened and vs.Policy() == hardened
    ffi = vs._ffi.ffi
    c = ffi.new("velstatus_policy *")
    assert lib.velstatus_policy_init(c, ffi.sizeof(c[0]), lib.VELSTATUS_PRESET_VELERO, ffi.NULL) == 0
    for name in vs.Policy.KNOBS:
        assert int(getattr(velero, name)) == getattr(c, name)


def test_policy_set_and_copy():
    p = vs.Policy.velero(level_triggered_partial_failure=True, progress_error_grace_ns="30s")
    assert p.level_triggered_partial_failure is True
    assert p.progress_error_grace_ns == 30 * 10**9
    q = p.copy(unknown_phase_fails=True)
    assert q.unknown_phase_fails and not p.unknown_phase_fails
    assert q.progress_error_grace_ns == p.progress_error_grace_ns
    with pytest.raises(AttributeError):
        p.no_such_knob = 1
    with pytest.raises(TypeError):
        p.unknown_phase_fails = 2
    assert p.as_dict()["preset"] == "velero"


def test_policy_velero_release():
    # doc/velero-releases.md: one preset per release, the last the current one
    assert vs.velero_releases() == ["1.11", "1.12", "1.13", "1.14", "1.15", "1.16", "1.17", "1.18"]
    assert vs.Policy.velero_release("1.18") == vs.Policy.velero()
    assert vs.Policy.velero_release((1, 18)) == vs.Policy.velero()
    p11 = vs.Policy.velero_release("v1.11.1")
    assert p11.preset is vs.Preset.VELERO
    assert p11.partial_failure_when_done is True and p11.default_item_operation_timeout_ns == 3600 * 10**9
    assert vs.Policy.velero_release("1.12").partial_failure_when_done is False
    assert vs.Policy.velero_release("1.12").backup_error_plugin_suffix is False
    assert vs.Policy.velero_release((1, 13)).backup_error_plugin_suffix is True
    assert vs.Policy.velero_release("1.13").restore_finalizing is False
    assert vs.Policy.velero_release("1.14").restore_finalizing is True
    assert vs.Policy.velero_release("1.14", unknown_phase_fails=True).unknown_phase_fails is True
    for bad in ("1.10", "9.9", (1, 10)):
        with pytest.raises(vs.InvalidArgument) as e:
            vs.Policy.velero_release(bad)
        assert "(supported: 1.11 to 1.18)" in str(e.value)
    with pytest.raises(vs.InvalidArgument):
        vs.Policy.velero_release("one.two")


def test_reconcile_per_release(srcdir):
    """The issue's done-when: one operation newly failed, one running."""
    data = os.path.join(srcdir, "tests", "data", "releases")
    with open(os.path.join(data, "two-ops-backup.json"), encoding="utf-8") as f:
        text = f.read()

    def progress(op):
        if op.operation_id == "du-b1-a":
            return vs.Progress(completed=True, err="DataUpload is canceled")
        return vs.Progress(n_completed=5, n_total=10, operation_units="Bytes")

    def run(release):
        return vs.OpList.from_json(text).reconcile(progress, None, now="2024-05-01T10:30:00Z",
                                                   phase="WaitingForPluginOperations", timeout="4h",
                                                   policy=vs.Policy.velero_release(release))
    assert run("1.11").phase is vs.Phase.WAITING_FOR_PLUGIN_OPERATIONS
    r12, r13 = run("1.12"), run("1.13")
    assert r12.phase is vs.Phase.WAITING_FOR_PLUGIN_OPERATIONS_PARTIALLY_FAILED
    assert list(r12.errors) == ["DataUpload is canceled"]
    assert list(r13.errors) == ["DataUpload is canceled, plugin: velero.io/csi-pvc-backupper"]


def test_bsl_validation_error_per_release():
    t14 = vs.bsl_validation_error("backup", "default_missing", "main", "gone", vs.Policy.velero_release("1.14"))
    t15 = vs.bsl_validation_error("backup", vs.BslValidation.DEFAULT_MISSING, "main", "gone",
                                  vs.Policy.velero_release("1.15"))
    assert "the default 'main' wasn't found." in t14 and t14.endswith("Error: gone")
    assert "the default main was not found." in t15
    assert vs.bsl_validation_error("restore", "unavailable", "main", policy=vs.Policy.velero_release("1.16")) is None
    assert (vs.bsl_validation_error("restore", "unavailable", "main")
            == "The BSL main is unavailable, cannot retrieve the backup")
    with pytest.raises(vs.InvalidArgument):
        vs.bsl_validation_error("restore", "read_only", "main")


# -- phases ------------------------------------------------------------------

def test_phase_transition():
    # doc/velero-behaviour.md §5.2: the backup controller moves InProgress on; only Finalizing ends in Completed.
    assert vs.phase_transition("backup", "InProgress", "Finalizing") == (True, "backup")
    assert vs.phase_transition(vs.Kind.BACKUP, vs.Phase.IN_PROGRESS, vs.Phase.COMPLETED) == (False, None)
    t = vs.phase_transition("backup", "WaitingForPluginOperations", "Finalizing")
    assert t.legal and t.controller == "backup-operations"
    assert vs.phase_transition("restore", "Completed", "Completed") == (True, "none")
    with pytest.raises(vs.InvalidArgument):
        vs.phase_transition("restore", "Queued", "New")


def test_phase_machine_per_release():
    p17, p13 = vs.Policy.velero_release("1.17"), vs.Policy.velero_release("1.13")
    assert vs.phase_exists("backup", "Queued") and not vs.phase_exists("backup", "Queued", p17)
    assert vs.phase_exists("restore", "Finalizing") and not vs.phase_exists("restore", "Finalizing", p13)
    assert vs.phase_transition("backup", "New", "InProgress", p17) == (True, "backup")
    assert vs.phase_transition("backup", "New", "InProgress") == (False, None)
    assert vs.phase_transition("restore", "WaitingForPluginOperations", "Completed", p13).legal
    with pytest.raises(vs.InvalidArgument) as e:
        vs.phase_transition("backup", "New", "Queued", p17)
    assert "Queued and ReadyToStart exist from Velero 1.18" in str(e.value)


def test_phase_after_run():
    # doc/velero-behaviour.md §2.7
    assert vs.phase_after_run("backup", fatal=True) is vs.Phase.FAILED
    assert vs.phase_after_run("backup") is vs.Phase.FINALIZING
    assert vs.phase_after_run("backup", errors_logged=1) is vs.Phase.FINALIZING_PARTIALLY_FAILED
    assert vs.phase_after_run("restore", in_progress=True) is vs.Phase.WAITING_FOR_PLUGIN_OPERATIONS
    assert (vs.phase_after_run("restore", errors_logged=3, in_progress=True)
            is vs.Phase.WAITING_FOR_PLUGIN_OPERATIONS_PARTIALLY_FAILED)


def test_phase_on_restart_follows_policy():
    assert vs.phase_on_restart("backup", "InProgress") == (vs.RestartAction.MARK_FAILED, vs.Phase.FAILED)
    # doc/velero-behaviour.md §6.17: Velero never picks a ReadyToStart backup up again; hardened requeues it.
    assert vs.phase_on_restart("backup", "ReadyToStart", vs.Policy.velero()).action is vs.RestartAction.NONE
    assert vs.phase_on_restart("backup", "ReadyToStart", "velero").action is vs.RestartAction.NONE
    assert vs.phase_on_restart("backup", "ReadyToStart").action is vs.RestartAction.REQUEUE
    assert vs.phase_on_restart("backup", "Completed") == (vs.RestartAction.NONE, vs.Phase.COMPLETED)


# -- the cdef ------------------------------------------------------------------

def test_callbacks_cdef_declares_only_trampolines(srcdir):
    """doc/conventions.md §7: no library declaration is copied by hand; callbacks.cdef
    holds only extern "Python" trampolines, each defined with def_extern."""
    import glob
    import re

    here = os.path.join(srcdir, "bindings", "python")
    with open(os.path.join(here, "callbacks.cdef"), encoding="utf-8") as f:
        text = re.sub(r"/\*.*?\*/", "", f.read(), flags=re.S)
    decls = [d.strip() for d in text.split(";") if d.strip()]
    assert decls and all(d.startswith('extern "Python"') for d in decls), decls
    names = [re.search(r"\b(_vs_\w+)\s*\(", d).group(1) for d in decls]
    source = ""
    for path in glob.glob(os.path.join(here, "velstatus", "*.py")):
        with open(path, encoding="utf-8") as f:
            source += f.read()
    for name in names:
        assert re.search(r"@ffi\.def_extern\(onerror=\w+\)\ndef %s\(userdata\b" % name, source), name
        assert hasattr(lib, name)


def test_every_library_function_is_in_the_module(srcdir):
    """Every VELSTATUS_API function the source tree's headers declare is in the module."""
    import glob
    import re
    names = set()
    for path in glob.glob(os.path.join(srcdir, "include", "velstatus", "*.h*")):
        with open(path, encoding="utf-8") as f:
            names.update(re.findall(r"VELSTATUS_API[^;(]*?\b(velstatus_[a-z0-9_]+)\s*\(", f.read(), flags=re.S))
    assert len(names) > 150
    for name in names:
        assert callable(getattr(lib, name)), name


ENUMS = [("Kind", "velstatus_kind", "VELSTATUS_KIND_"), ("Phase", "velstatus_phase", "VELSTATUS_PHASE_"),
         ("Preset", "velstatus_preset", "VELSTATUS_PRESET_"),
         ("BslValidation", "velstatus_bsl_validation", "VELSTATUS_BSL_VALIDATION_"),
         ("RestartAction", "velstatus_restart_action", "VELSTATUS_RESTART_"), ("Status", "velstatus_status", "VELSTATUS_"),
         ("OpPhase", "velstatus_op_phase", "VELSTATUS_OP_PHASE_"),
         ("OpReport", "velstatus_op_report_kind", "VELSTATUS_OP_REPORT_"),
         ("OpStepFlag", "velstatus_op_step_flag", "VELSTATUS_OP_STEP_"), ("BslState", "velstatus_bsl_state", "VELSTATUS_BSL_"),
         ("PersistAction", "velstatus_persist_action", "VELSTATUS_PERSIST_"),
         ("PersistFailure", "velstatus_persist_failure", "VELSTATUS_PERSIST_FAILED_"),
         ("ProgressFlag", "velstatus_progress_flag", "VELSTATUS_PROGRESS_F_"),
         ("ServerStatus", "velstatus_server_status", "VELSTATUS_SERVER_"),
         ("ServerReason", "velstatus_server_reason", "VELSTATUS_SERVER_REASON_"),
         ("BslAccess", "velstatus_bsl_access", "VELSTATUS_BSL_"), ("RetryClass", "velstatus_retry_class", "VELSTATUS_RETRY_CLASS_"),
         ("RetryOutcome", "velstatus_retry_outcome", "VELSTATUS_RETRY_OUTCOME_"),
         ("BackoffKind", "velstatus_backoff_kind", "VELSTATUS_BACKOFF_"),
         ("ArgoHealth", "velstatus_argo_health", "VELSTATUS_ARGO_"),
         ("ForecastFate", "velstatus_forecast_fate", "VELSTATUS_FORECAST_FATE_"),
         ("ForecastEta", "velstatus_forecast_eta", "VELSTATUS_FORECAST_ETA_"),
         ("ForecastEnd", "velstatus_forecast_end", "VELSTATUS_FORECAST_END_"),
         ("ConditionStatus", "velstatus_condition_status", "VELSTATUS_CONDITION_"),
         ("WatchType", "velstatus_watch_type", "VELSTATUS_WATCH_"),
         ("SnapshotKind", "velstatus_snapshot_kind", "VELSTATUS_SNAPSHOT_KIND_"),
         ("SnapshotField", "velstatus_snapshot_field", "VELSTATUS_SNAPSHOT_FIELD_"),
         ("DmKind", "velstatus_dm_kind", "VELSTATUS_DM_"),
         ("DmPhase", "velstatus_dm_phase", "VELSTATUS_DM_PHASE_"),
         ("DmAction", "velstatus_dm_action", "VELSTATUS_DM_ACTION_"),
         ("DmWhen", "velstatus_dm_when", "VELSTATUS_DM_WHEN_")]


@pytest.mark.parametrize("name,ctype,prefix", ENUMS)
def test_declared_enums_match_the_header(name, ctype, prefix):
    """The members written out in Python are the C enum's, with its C values."""
    cls = getattr(vs, name)
    elements = {cname[len(prefix):]: value for value, cname in ffi.typeof(ctype).elements.items()}
    invalid = [n for n, v in elements.items() if v == -1 and (n == "INVALID" or n.endswith("_INVALID"))]
    if invalid:
        # A getter's answer for a NULL object (VELSTATUS_ARGO_HEALTH_INVALID
        # after the prefix is HEALTH_INVALID): no Python member, from_c refuses it.
        del elements[invalid[0]]
        if issubclass(cls, CEnum):
            with pytest.raises(ValueError):
                cls.from_c(-1)
    assert set(cls.__members__) == set(elements), name
    for member_name, value in elements.items():
        member = cls[member_name]
        assert (member.c if isinstance(member, CEnum) else int(member)) == value, (name, member_name)
        if isinstance(member, CEnum):
            assert cls.from_c(value) is member and cls(member.value) is member


def test_every_public_enum_is_declared():
    import enum
    public = {n for n in vs.__all__ if isinstance(getattr(vs, n), type) and issubclass(getattr(vs, n), enum.Enum)}
    assert public - {"CEnum"} == {n for n, _, _ in ENUMS}


def test_c_enum_rejects_a_declaration_that_drifted():
    from velstatus._enums import c_enum
    bind = c_enum("velstatus_kind", "VELSTATUS_KIND_", lib.velstatus_kind_to_string)
    with pytest.raises(ImportError, match="RESTORE"):
        class Missing(CEnum):
            BACKUP = "backup"
        bind(Missing)
    with pytest.raises(ImportError, match="Kind2.BACKUP is 'Backup'"):
        class Kind2(CEnum):
            BACKUP = "Backup"
            RESTORE = "restore"
        bind(Kind2)
    with pytest.raises(ImportError, match="Codes.OK is 3"):
        import enum
        codes = enum.IntEnum("Codes", {**{m.name: int(m) for m in vs.Status}, "OK": 3})
        c_enum("velstatus_status", "VELSTATUS_")(codes)


def test_int_enums_print_their_c_tokens():
    # Every public enum has a C _to_string; the IntEnum/IntFlag classes print it.
    assert str(vs.PersistAction.UPLOAD_AND_PATCH) == "upload_and_patch"
    assert str(vs.BslState.READONLY) == "readonly"
    assert str(vs.OpStepFlag.FAILED_NOW) == "failed_now"
    assert str(vs.OpStepFlag.CANCEL | vs.OpStepFlag.FAILED_NOW) == "cancel|failed_now"
    assert str(vs.OpReport.LOOKUP_ERROR) == "lookup_error"
