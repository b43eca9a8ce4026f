// An app that imports LockstepDependencies reads `@Dependency` with no second import.
@_exported import Dependencies
