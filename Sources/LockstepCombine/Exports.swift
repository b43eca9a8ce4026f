// Combine on Apple platforms, OpenCombine (the same API) elsewhere: importing LockstepCombine
// gives `AnyPublisher`, `sink`, `AnyCancellable` and the other Combine names on every platform.
#if canImport(Combine)
@_exported import Combine
#else
@_exported import OpenCombine
#endif
