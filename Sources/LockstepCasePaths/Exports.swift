// `import LockstepCasePaths` brings CasePaths' `@CasePathable` macro and case key paths with it.
// It does not re-export Lockstep: an app imports Lockstep too, and the documentation of this
// module lists only its own functions, not Lockstep's overloads of the same names.
@_exported import CasePaths
