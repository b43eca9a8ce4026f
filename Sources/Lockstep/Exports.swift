// IssueReporting's `unimplemented`, for the test value of a dependency: an endpoint that records
// a test failure naming itself when it is called. An app writes its services' test values (and
// the default value of a query's context key) next to the live ones, so `import Lockstep` gives
// it, and LockstepTesting, which re-exports Lockstep, gives it to tests. Only this function is
// re-exported; the rest of IssueReporting is imported where it is needed.
@_exported import func IssueReporting.unimplemented
