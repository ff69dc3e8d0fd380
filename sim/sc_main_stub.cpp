// libsystemc's own main() references sc_main. cvsim and the test binaries have their own main, so this is
// never called; it is compiled into every target that links SystemC so that reference resolves.
extern "C" int sc_main(int, char**) {
    return 3;
}
