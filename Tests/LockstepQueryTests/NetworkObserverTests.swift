import Lockstep
@testable import LockstepQuery
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct NetworkObserverTests {
    @Test func statusesHaveStableRawValues() {
        #expect(NetworkConnectionStatus.allCases.map(\.rawValue)
            == ["connected", "disconnected", "requiresConnection"])
    }

    @Test func manualObserverStartsConnectedByDefault() {
        #expect(ManualNetworkObserver().currentStatus == .connected)
        #expect(ManualNetworkObserver(status: .requiresConnection).currentStatus
            == .requiresConnection)
    }

    @Test func manualObserverNotifiesBeforeSendReturnsAndOnlyOnChange() {
        let network = ManualNetworkObserver(status: .disconnected)
        let heard = Recorder<NetworkConnectionStatus>()
        let subscription = network.subscribe { heard.append($0) }
        #expect(heard.values == [])

        network.send(.disconnected)
        #expect(heard.values == [])
        network.send(.requiresConnection)
        #expect(heard.values == [.requiresConnection])
        network.send(.connected)
        network.send(.connected)
        #expect(heard.values == [.requiresConnection, .connected])
        #expect(network.currentStatus == .connected)

        subscription.cancel()
        network.send(.disconnected)
        #expect(heard.values == [.requiresConnection, .connected])
        #expect(network.currentStatus == .disconnected)
    }

    @Test func defaultObserversOnThisPlatform() {
        #if os(Linux)
            #expect(DefaultObservers.networkObserver is InterfaceNetworkObserver)
            #expect(DefaultObservers.focusCondition == nil)
        #endif
    }
}

@Suite struct InterfaceStatusRuleTests {
    typealias Interface = NetworkInterfaceDescription
    static let upAndRunning = Interface.up | Interface.running

    @Test func noInterfacesMeansDisconnected() {
        #expect(NetworkInterfaceRules.status(of: []) == .disconnected)
    }

    @Test func anUpRunningAddressedInterfaceMeansConnected() {
        let interfaces = [Interface(name: "eth0", flags: Self.upAndRunning, hasAddress: true)]
        #expect(NetworkInterfaceRules.status(of: interfaces) == .connected)
    }

    @Test func loopbackAloneIsNotAConnection() {
        let loopback = Self.upAndRunning | Interface.loopback
        let interfaces = [
            Interface(name: "lo", flags: loopback, hasAddress: true),
            // The flag decides, not the name.
            Interface(name: "eth0", flags: loopback, hasAddress: true),
        ]
        #expect(NetworkInterfaceRules.status(of: interfaces) == .disconnected)
    }

    @Test(arguments: [
        (Interface.up, true),  // up, no carrier
        (Interface.running, true),  // running but administratively down
        (UInt32(0), true),
        (upAndRunning, false),  // no address
    ])
    func anInterfaceMissingSomethingIsNotAConnection(flags: UInt32, hasAddress: Bool) {
        let interfaces = [
            Interface(name: "lo", flags: Self.upAndRunning | Interface.loopback, hasAddress: true),
            Interface(name: "wlan0", flags: flags, hasAddress: hasAddress),
        ]
        #expect(NetworkInterfaceRules.status(of: interfaces) == .disconnected)
    }

    @Test func otherFlagBitsDoNotMatter() {
        let flags = Self.upAndRunning | 0x2 | 0x1000  // broadcast, multicast
        let interfaces = [Interface(name: "eth0", flags: flags, hasAddress: true)]
        #expect(NetworkInterfaceRules.status(of: interfaces) == .connected)
    }

    @Test func anInterfaceMayListItsFlagsAndAddressInSeparateEntries() {
        let interfaces = [
            Interface(name: "eth0", flags: Self.upAndRunning, hasAddress: false),  // AF_PACKET
            Interface(name: "eth0", flags: Self.upAndRunning, hasAddress: true),  // AF_INET6
        ]
        #expect(NetworkInterfaceRules.status(of: interfaces) == .connected)
    }

    @Test func theActiveInterfaceMustBeTheAddressedOne() {
        let interfaces = [
            Interface(name: "eth0", flags: Self.upAndRunning, hasAddress: false),
            Interface(name: "wlan0", flags: Interface.up, hasAddress: true),
        ]
        #expect(NetworkInterfaceRules.status(of: interfaces) == .disconnected)
    }

    @Test func oneGoodInterfaceAmongManyIsEnough() {
        let interfaces = [
            Interface(name: "lo", flags: Self.upAndRunning | Interface.loopback, hasAddress: true),
            Interface(name: "docker0", flags: Interface.up, hasAddress: true),
            Interface(name: "eth0", flags: 0, hasAddress: false),
            Interface(name: "wlan0", flags: Self.upAndRunning, hasAddress: true),
        ]
        #expect(NetworkInterfaceRules.status(of: interfaces) == .connected)
    }

    @Test(arguments: [
        ([192, 168, 1, 20], true),
        ([10, 0, 0, 1], true),
        ([169, 254, 7, 1], false),  // link-local
        ([169, 253, 7, 1], true),
        ([127, 0, 0, 1], false),
        ([0, 0, 0, 0], false),
    ] as [([UInt8], Bool)])
    func ipv4Addresses(bytes: [UInt8], isUsable: Bool) {
        #expect(NetworkInterfaceRules.isUsableAddress(bytes: bytes) == isUsable)
    }

    @Test(arguments: [
        (ipv6(0x2001, 0x0db8, 0, 0, 0, 0, 0, 1), true),
        (ipv6(0xfd00, 0, 0, 0, 0, 0, 0, 2), true),  // unique local
        (ipv6(0xfe80, 0, 0, 0, 0, 0, 0, 1), false),  // link-local
        (ipv6(0xfebf, 0, 0, 0, 0, 0, 0, 1), false),  // still fe80::/10
        (ipv6(0xfec0, 0, 0, 0, 0, 0, 0, 1), true),
        (ipv6(0, 0, 0, 0, 0, 0, 0, 1), false),  // loopback
        (ipv6(0, 0, 0, 0, 0, 0, 0, 0), false),  // unspecified
        (ipv6(0, 0, 0, 0, 0, 0, 0, 2), true),
    ])
    func ipv6Addresses(bytes: [UInt8], isUsable: Bool) {
        #expect(NetworkInterfaceRules.isUsableAddress(bytes: bytes) == isUsable)
    }

    @Test func addressesOfOtherLengthsAreNotUsable() {
        #expect(!NetworkInterfaceRules.isUsableAddress(bytes: []))
        #expect(!NetworkInterfaceRules.isUsableAddress(bytes: [10, 0, 0]))
        #expect(!NetworkInterfaceRules.isUsableAddress(bytes: Array(repeating: 0x20, count: 8)))
    }

    #if os(Linux) && canImport(Glibc)
        @Test func flagValuesMatchTheSystemHeaders() {
            #expect(Interface.up == UInt32(IFF_UP))
            #expect(Interface.running == UInt32(IFF_RUNNING))
            #expect(Interface.loopback == UInt32(IFF_LOOPBACK))
        }
    #endif
}

/// The 16 bytes, in network order, of the IPv6 address with these eight 16-bit groups.
private func ipv6(_ groups: UInt16...) -> [UInt8] {
    groups.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xff)] }
}

/// Checks on the real observer that hold whatever the machine's network is.
@Suite struct InterfaceNetworkObserverTests {
    @Test func currentStatusIsAStatus() {
        let observer = InterfaceNetworkObserver()
        #expect(NetworkConnectionStatus.allCases.contains(observer.currentStatus))
        let shared = InterfaceNetworkObserver.shared.currentStatus
        #expect(NetworkConnectionStatus.allCases.contains(shared))
    }

    @Test func subscribeThenCancel() {
        let observer = InterfaceNetworkObserver()
        let subscription = observer.subscribe { _ in }
        #expect(!subscription.isCancelled)
        subscription.cancel()
        #expect(subscription.isCancelled)
    }

    @Test func stopIsIdempotentAndKeepsAStatus() {
        let observer = InterfaceNetworkObserver()
        let before = observer.currentStatus
        observer.stop()
        observer.stop()
        #expect(observer.currentStatus == before)
        let subscription = observer.subscribe { _ in }
        subscription.cancel()
        #expect(subscription.isCancelled)
    }

    @Test func stopBeforeFirstUse() {
        let observer = InterfaceNetworkObserver()
        observer.stop()
        #expect(NetworkConnectionStatus.allCases.contains(observer.currentStatus))
    }

    @Test func releasingAStartedObserverFreesIt() {
        weak var released: InterfaceNetworkObserver?
        do {
            let observer = InterfaceNetworkObserver()
            _ = observer.subscribe { _ in }
            _ = observer.currentStatus
            released = observer
        }
        #expect(released == nil)
    }

    #if os(Linux) && canImport(Glibc)
        @Test func readingTheInterfacesGivesAStatus() {
            let status = SystemNetworkWatch.readInterfaceStatus()
            #expect(status == .connected || status == .disconnected)
        }
    #endif
}

/// Collects what handlers hear, from any thread.
private final class Recorder<Value: Sendable>: Sendable {
    private let storage = Lock<[Value]>([])

    func append(_ value: Value) {
        storage.withLock { $0.append(value) }
    }

    var values: [Value] {
        storage.withLock { $0 }
    }
}
