/** The error `promise` is rejected with, when it is an `errorClass`; resolving, or any other error, fails the test. */
export async function rejectionOf<E>(promise: Promise<unknown>, errorClass: abstract new (...args: never[]) => E): Promise<E> {
  try {
    await promise
  } catch (e) {
    if (e instanceof errorClass) return e
    throw e
  }
  throw new Error(`expected a rejection with ${errorClass.name}`)
}
