/// The observers of an ``ActorStore``: the ones that run anywhere, called on the store's actor,
/// and the ones of the main actor, reached through a ``MainActorRelay``.
struct ActorStoreObservers<State: Sendable, Action: Sendable>: Sendable {
    private let anywhere: [ActionObserver<State, Action>.Nonisolated]
    /// The relay to the observers of the main actor, or `nil` when there are none.
    let mainActor: MainActorRelay<Reduction<State, Action>>?

    /// The observers in `observers` that are not always off; `startDrain`, when set, starts the
    /// relay's drain on the main actor instead of a task of the main actor (for tests).
    init(_ observers: [ActionObserver<State, Action>], startDrain: MainActorRelay<Reduction<State, Action>>.StartDrain? = nil) {
        let observers = observers.filter { !$0.isAlwaysOff }
        anywhere = observers.compactMap(\.anywhere)
        let mainActorObservers = observers.filter { $0.anywhere == nil }
        let receive: @MainActor @Sendable (Reduction<State, Action>) -> Void = { reduction in
            for observer in mainActorObservers where observer.isEnabled() {
                observer.observe(reduction)
            }
        }
        if mainActorObservers.isEmpty {
            mainActor = nil
        } else if let startDrain {
            mainActor = MainActorRelay(startDrain: startDrain, receive)
        } else {
            mainActor = MainActorRelay(receive)
        }
    }

    /// Returns once the observers of the main actor have room for one more reduction (at most
    /// ``MainActorRelay/capacity`` wait for the main actor): at once when there is room or no
    /// such observer. Called on the store's actor right before a reducer, which then runs with no
    /// suspension in between, so the queue never holds more.
    func waitForRoom(isolation: isolated (any Actor)? = #isolation) async {
        guard let mainActor else { return }
        while !mainActor.hasRoom {
            await mainActor.waitForRoom()
        }
    }

    /// Whether the store has no observer at all.
    var isEmpty: Bool {
        anywhere.isEmpty && mainActor == nil
    }

    /// Hands the reduction `makeReduction` builds to every enabled observer, building it only if
    /// one is. An observer of the main actor is counted as enabled: it is asked there, later.
    ///
    /// - Returns: Whether an observer saw the reduction.
    func observe(_ makeReduction: () -> Reduction<State, Action>) -> Bool {
        let enabled = anywhere.filter { $0.isEnabled() }
        guard !enabled.isEmpty || mainActor != nil else { return false }
        let reduction = makeReduction()
        for observer in enabled {
            observer.observe(reduction)
        }
        mainActor?.send(reduction)
        return true
    }
}
