// The consumer side: each function reads the container one way and calls one resolve.
import Container

struct Consumer: HasDependencies {}

@inline(never) func readGet(_ consumer: Consumer) -> Int { consumer.viaGet.resolveValue() }
@inline(never) func readAddress(_ consumer: Consumer) -> Int { consumer.viaAddress.resolveValue() }
@inline(never) func readReadThroughAddress(_ consumer: Consumer) -> Int {
    consumer.viaReadThroughAddress.resolveValue()
}
@inline(never) func readReadUnowned(_ consumer: Consumer) -> Int { consumer.viaReadUnowned.resolveValue() }
@inline(never) func readStrongBox(_ consumer: Consumer) -> Int { consumer.viaStrongBox.resolveValue() }
@inline(never) func readClosure(_ consumer: Consumer) -> Int {
    injector.withContainer { $0.resolveValue() }
}

print(
    readGet(Consumer()), readAddress(Consumer()), readReadThroughAddress(Consumer()),
    readReadUnowned(Consumer()), readStrongBox(Consumer()), readClosure(Consumer()))
