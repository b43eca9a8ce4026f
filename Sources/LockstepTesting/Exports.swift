// A test file needs no second import: Lockstep's stores, reducers and middleware, and with them
// IssueReporting's `unimplemented` (which Lockstep re-exports) for the test values of
// dependencies.
@_exported import Lockstep
