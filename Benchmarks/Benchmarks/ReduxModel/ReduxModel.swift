// A model of ReSwift's synchronous store, used as a same-run baseline because ReSwift is not
// mirrored on the machines Lockstep is measured on. It is written for this suite from the shape
// of ReSwift's public API and documented behaviour, not copied from it, and it sits in a module
// of its own because an app uses ReSwift across a module boundary too.
//
// The dispatch path it models:
// - actions are values of any type conforming to an `Action` protocol, handled as existentials;
// - the reducer is `(Action, State?) -> State` and downcasts the action itself;
// - middlewares are curried `(dispatch, getState) -> (next) -> (action) -> Void` functions,
//   composed once, when the store is made, into one dispatch function whose innermost step
//   reduces;
// - a flag rejects a dispatch from inside the reducer;
// - the state is an implicitly unwrapped optional whose `didSet` drops the subscriptions whose
//   subscriber is gone and hands the old and new state to every other one;
// - a subscription of an `Equatable` state skips repeats before it calls its subscriber, whose
//   `newState(state:)` is reached through a type-erased `Any`.

/// The marker protocol of every action.
public protocol Action {}

/// What a store calls to dispatch an action.
public typealias DispatchFunction = (any Action) -> Void

/// A reducer in the type-erased form a ReSwift-style store takes.
public typealias Reducer<State> = (_ action: any Action, _ state: State?) -> State

/// A middleware: given the store's dispatch and state, it wraps the next dispatch function.
public typealias Middleware<State> = (
    _ dispatch: @escaping DispatchFunction,
    _ getState: @escaping () -> State?
) -> (_ next: @escaping DispatchFunction) -> DispatchFunction

/// A subscriber of any state type, as the store sees it.
public protocol AnyStoreSubscriber: AnyObject {
    func _newState(state: Any)
}

/// A subscriber that receives the store's state.
public protocol StoreSubscriber: AnyStoreSubscriber {
    associatedtype StoreSubscriberStateType
    func newState(state: StoreSubscriberStateType)
}

extension StoreSubscriber {
    public func _newState(state: Any) {
        if let typedState = state as? StoreSubscriberStateType {
            newState(state: typedState)
        }
    }
}

/// One step of a subscription's pipeline: it receives old and new values and passes them on.
public final class Subscription<State> {
    var observer: ((_ oldState: State?, _ newState: State) -> Void)?

    init() {}

    func newValues(oldState: State?, newState: State) {
        observer?(oldState, newState)
    }

    /// A subscription that passes on only the values that differ from the previous one.
    func skipRepeats(_ isRepeat: @escaping (State, State) -> Bool) -> Subscription<State> {
        let next = Subscription<State>()
        observer = { oldState, newState in
            if let oldState, isRepeat(oldState, newState) { return }
            next.newValues(oldState: oldState, newState: newState)
        }
        return next
    }
}

/// A subscription held by the store: the subscriber weakly, and the head of its pipeline.
final class SubscriptionBox<State> {
    weak var subscriber: AnyStoreSubscriber?
    let head: Subscription<State>

    init(subscriber: AnyStoreSubscriber, head: Subscription<State>, tail: Subscription<State>) {
        self.subscriber = subscriber
        self.head = head
        tail.observer = { [weak self] _, newState in
            self?.subscriber?._newState(state: newState)
        }
    }

    func newValues(oldState: State?, newState: State) {
        head.newValues(oldState: oldState, newState: newState)
    }
}

/// A synchronous store: `dispatch` runs the middleware chain, the reducer and every
/// subscription before it returns.
open class Store<State> {
    public private(set) var state: State! {
        didSet {
            subscriptions = subscriptions.filter { $0.subscriber != nil }
            for subscription in subscriptions {
                subscription.newValues(oldState: oldValue, newState: state)
            }
        }
    }

    private let reducer: Reducer<State>
    private var subscriptions: [SubscriptionBox<State>] = []
    private var isDispatching = false
    private var dispatchFunction: DispatchFunction!

    public init(reducer: @escaping Reducer<State>, state: State?, middleware: [Middleware<State>] = []) {
        self.reducer = reducer
        self.state = state
        let reduce: DispatchFunction = { [unowned self] action in
            self.reduce(action)
        }
        dispatchFunction = middleware.reversed().reduce(reduce) { next, middleware in
            middleware(
                { [weak self] action in self?.dispatch(action) },
                { [weak self] in self?.state }
            )(next)
        }
    }

    /// Runs `action` through the middleware chain, the reducer and the subscriptions.
    open func dispatch(_ action: any Action) {
        dispatchFunction(action)
    }

    /// Adds a subscriber whose pipeline `transform` builds from the store's subscription.
    open func subscribe<Subscriber: StoreSubscriber>(
        _ subscriber: Subscriber,
        transform: (Subscription<State>) -> Subscription<State>
    ) where Subscriber.StoreSubscriberStateType == State {
        let head = Subscription<State>()
        let tail = transform(head)
        subscriptions.append(SubscriptionBox(subscriber: subscriber, head: head, tail: tail))
        if let state {
            head.newValues(oldState: nil, newState: state)
        }
    }

    private func reduce(_ action: any Action) {
        precondition(!isDispatching, "A reducer dispatched an action while the store was reducing one")
        isDispatching = true
        let newState = reducer(action, state)
        isDispatching = false
        state = newState
    }
}

extension Store where State: Equatable {
    /// Adds a subscriber that is told only of states that differ from the previous one.
    public func subscribe<Subscriber: StoreSubscriber>(_ subscriber: Subscriber)
    where Subscriber.StoreSubscriberStateType == State {
        subscribe(subscriber) { $0.skipRepeats(==) }
    }
}
