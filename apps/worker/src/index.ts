export default { fetch() { return new Response("hi") } }
