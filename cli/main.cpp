// blockls entry point (stub).
int main() { return 0; }
