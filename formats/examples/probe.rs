use meshspec_formats::unity::files::{bundle::Bundle, serialized::Serialized, Limits};
fn main() {
    for p in std::env::args().skip(1) {
        let bytes = std::fs::read(&p).unwrap();
        let t = std::time::Instant::now();
        if bytes.starts_with(b"UnityFS") {
            let b = match Bundle::open(&bytes, &Limits::for_input(bytes.len() as u64)) { Ok(b) => b, Err(e) => { println!("{p}: {e}"); continue; } };
            println!("{p}: bundle open {:?}", t.elapsed());
            for n in b.nodes() {
                println!("  node {} {} {} flags {}", n.path, n.offset, n.bytes.len(), n.flags);
                if n.flags & 4 != 0 {
                    let t = std::time::Instant::now();
                    match Serialized::open(n.bytes) {
                        Ok(s) => { println!("   serialized ok {:?}: {} objects {} types v{}", t.elapsed(), s.objects.len(), s.trees.len(), s.unity_version_text());
                            if std::env::var("TREE").is_ok() { for o in &s.objects { if o.class_id == 43 { dump_tree(s.tree(o).unwrap()); break; } } }
                            let mut bad = 0; let t = std::time::Instant::now();
                            for o in &s.objects { if let Err(e) = s.read(o) { bad += 1; if bad < 5 { println!("    read err {e}"); } } }
                            println!("   read all {:?} bad {bad}", t.elapsed());
                            let back = meshspec_formats::unity::files::adapter::write_serialized(&s.file).unwrap();
                            println!("   roundtrip {}", back == n.bytes);
                        }
                        Err(e) => println!("   {e}"),
                    }
                }
            }
            let back = meshspec_formats::unity::files::adapter::write_bundle(&b.file).unwrap();
            println!("  roundtrip {}", back == bytes);
        } else {
            match Serialized::open(&bytes) {
                Ok(s) => { println!("{p}: serialized ok {:?}: {} objects", t.elapsed(), s.objects.len());
                    let mut bad = 0;
                    for o in &s.objects { if let Err(e) = s.read(o) { bad += 1; if bad < 5 { println!("    read err {e}"); } } }
                    println!("   bad {bad}");
                }
                Err(e) => println!("{p}: {e}"),
            }
        }
    }
}
#[allow(dead_code)]
fn dump_tree(t: &meshspec_formats::unity::files::typetree::TypeTree) {
    for n in &t.nodes { println!("{}{} {} size {} flags {} meta 0x{:X}", "  ".repeat(n.level as usize), n.type_name, n.name, n.byte_size, n.type_flags, n.meta_flag); }
}
