// A test of an app that scopes with case key paths imports LockstepCasePathsTesting alone: it
// brings LockstepTesting (and Lockstep) and LockstepCasePaths (and CasePaths).
@_exported import LockstepCasePaths
@_exported import LockstepTesting
