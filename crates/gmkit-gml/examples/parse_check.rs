fn main() {
    let p = std::env::args().nth(1).unwrap();
    let t = std::fs::read_to_string(p).unwrap();
    match gmkit_gml::parse::parse(&t) {
        Ok(_) => println!("ok"),
        Err(e) => println!("{e}"),
    }
}
