// Combine on Apple platforms, OpenCombine (the same API) elsewhere: importing LockstepCombine
// gives `AnyPublisher`, `sink`, `AnyCancellable` and the other Combine names on every platform.
#if canImport(Combine)
@_exported import Combine
#else
@_exported import OpenCombine
#endif

// The store, effects and selectors a Combine pipeline works with: an app that imports the
// bridge needs no second import.
@_exported import Lockstep
