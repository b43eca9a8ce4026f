import Lockstep

/// A handle on something that notifies you: a store's state, a network observer, a condition.
///
/// It is Lockstep's `EffectRegistration`, under the name swift-operation gives it: one type for
/// everything that keeps running until it is cancelled or released, so a model keeps its effect
/// registrations and its query subscriptions in one set.
///
/// Keep the subscription for as long as you want the notifications. Calling `cancel()` ends
/// them, and so does releasing the last reference to the subscription, so a model that keeps its
/// subscriptions in a set stops listening when the model goes away:
///
/// ```swift
/// @ObservationIgnored private var subscriptions = Set<OperationSubscription>()
///
/// store.subscribe(with: QueryEventHandler { state, _ in print(state.status) })
///   .store(in: &subscriptions)
/// ```
///
/// `OperationSubscription(onCancel:)` makes one that runs a closure when it ends; `.empty` has
/// nothing to cancel, and `.combined(_:)` cancels several at once. Subscriptions are compared by
/// identity.
public typealias OperationSubscription = EffectRegistration
