use meshspec_formats::unity::files::GameFiles;
fn main() {
    let paths: Vec<std::path::PathBuf> = std::env::args().skip(1).map(Into::into).collect();
    let t = std::time::Instant::now();
    let g = match GameFiles::open(&paths) { Ok(g) => g, Err(e) => { println!("{e}"); return; } };
    println!("open {:?}", t.elapsed());
    for r in g.meshes() {
        let m = match g.mesh(r) { Ok(m) => m, Err(e) => { println!("mesh err {e}"); continue; } };
        println!("{} {} v{:?} fixed {:?} stream {:?}", g.place(r), m.name(), m.version, m.fixed.as_ref().err().map(|e| e.to_string()), m.stream());
        match g.check(&m, None) { Ok(rel) => for e in rel { println!("   rel {e}"); }, Err(e) => println!("   check err {e}") }
        match g.scene(&m, None) { Ok(s) => { let me = &s.meshes[0]; println!("   scene {} verts {} prims {} mats {:?} joints {:?} notes {:?}", me.name, me.positions.len(), me.primitives.len(), me.materials.iter().map(|m| m.name.clone()).collect::<Vec<_>>(), me.skin.as_ref().map(|s| s.joint_names.iter().take(4).cloned().collect::<Vec<_>>()), s.notes); }, Err(e) => println!("   scene err {e}") }
    }
    println!("total {:?}", t.elapsed());
}
