// TEMPORARY: replaced by the helper's files.
import Synchronization
public struct OperationBackoffFunction: Sendable {
  let body: @Sendable (Int) -> Duration
  public init(description: String, _ body: @escaping @Sendable (_ retryIndex: Int) -> Duration) { self.body = body }
  public func callAsFunction(_ retryIndex: Int) -> Duration { retryIndex < 1 ? .zero : body(retryIndex) }
  public static var noBackoff: Self { Self(description: "none") { _ in .zero } }
  public static func exponential(_ base: Duration, multiplier: Double = 2, maximum: Duration? = nil) -> Self { Self(description: "exp") { n in base * Int(pow2(n - 1)) } }
  public static func constant(_ delay: Duration) -> Self { Self(description: "c") { _ in delay } }
}
func pow2(_ n: Int) -> Int { 1 << min(n, 30) }
public struct OperationDelayer: Sendable {
  let body: @Sendable (Duration) async throws -> Void
  public init(_ delay: @escaping @Sendable (Duration) async throws -> Void) { body = delay }
  public func delay(for duration: Duration) async throws { if duration > .zero { try await body(duration) } }
  public static var noDelay: Self { Self { _ in } }
  public static func clock<C: Clock>(_ clock: C) -> Self where C.Duration == Duration { Self { try await clock.sleep(for: $0) } }
}
public struct FetchCondition: Sendable {
  let isSatisfiedBody: @Sendable () -> Bool
  let subscribeBody: @Sendable (@escaping @Sendable (Bool) -> Void) -> OperationSubscription
  public init(isSatisfied: @escaping @Sendable () -> Bool, subscribe: @escaping @Sendable (_ onChange: @escaping @Sendable (Bool) -> Void) -> OperationSubscription) { isSatisfiedBody = isSatisfied; subscribeBody = subscribe }
  public var isSatisfied: Bool { isSatisfiedBody() }
  public func subscribe(_ onChange: @escaping @Sendable (Bool) -> Void) -> OperationSubscription { subscribeBody(onChange) }
  public static func always(_ value: Bool) -> Self { Self(isSatisfied: { value }, subscribe: { _ in .empty }) }
}
public final class ManualCondition: Sendable {
  let state = Mutex<(Bool, [Int: @Sendable (Bool) -> Void], Int)>((false, [:], 0))
  public init(_ initialValue: Bool) { state.withLock { $0.0 = initialValue } }
  public var value: Bool { state.withLock { $0.0 } }
  public func set(_ newValue: Bool) {
    let hs: [@Sendable (Bool) -> Void] = state.withLock { s in if s.0 == newValue { return [] }; s.0 = newValue; return Array(s.1.values) }
    for h in hs { h(newValue) }
  }
  public var condition: FetchCondition {
    FetchCondition(isSatisfied: { self.value }, subscribe: { h in
      let id = self.state.withLock { s in s.2 += 1; s.1[s.2] = h; return s.2 }
      return OperationSubscription { self.state.withLock { _ = $0.1.removeValue(forKey: id) } }
    })
  }
}
public enum NetworkConnectionStatus: String, Sendable, Hashable, CaseIterable { case connected, disconnected, requiresConnection }
public protocol NetworkObserver: Sendable {
  var currentStatus: NetworkConnectionStatus { get }
  func subscribe(with handler: @escaping @Sendable (NetworkConnectionStatus) -> Void) -> OperationSubscription
}
public final class ManualNetworkObserver: NetworkObserver {
  let state = Mutex<(NetworkConnectionStatus, [Int: @Sendable (NetworkConnectionStatus) -> Void], Int)>((.connected, [:], 0))
  public init(status: NetworkConnectionStatus = .connected) { state.withLock { $0.0 = status } }
  public var currentStatus: NetworkConnectionStatus { state.withLock { $0.0 } }
  public func send(_ status: NetworkConnectionStatus) {
    let hs: [@Sendable (NetworkConnectionStatus) -> Void] = state.withLock { s in if s.0 == status { return [] }; s.0 = status; return Array(s.1.values) }
    for h in hs { h(status) }
  }
  public func subscribe(with handler: @escaping @Sendable (NetworkConnectionStatus) -> Void) -> OperationSubscription {
    let id = state.withLock { s in s.2 += 1; s.1[s.2] = handler; return s.2 }
    return OperationSubscription { self.state.withLock { _ = $0.1.removeValue(forKey: id) } }
  }
}
public enum DefaultObservers {
  public static var networkObserver: (any NetworkObserver)? { nil }
  public static var focusCondition: FetchCondition? { nil }
}
